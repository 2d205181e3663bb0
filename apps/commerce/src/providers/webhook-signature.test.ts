import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { signPayload } from '../../test/sign-payload.js';
import { verifySignature } from './webhook-signature.js';

const SECRET = 'whsec_test_5b1f0c2a9d8e7f6a5b4c3d2e1f0a9b8c';
const NOW = new Date('2026-11-23T12:00:00Z');
const T = Math.floor(NOW.getTime() / 1000);
const BODY = Buffer.from('{"id":"evt_1","type":"payment_intent.succeeded","data":{"object":{"amount_received":1325}}}');

/** Stripe's published scheme, written out by hand rather than with the code under test. */
const stripeHeader = (secret: string, body: Buffer, t = T) =>
  `t=${t},v1=${createHmac('sha256', secret)
    .update(Buffer.concat([Buffer.from(`${t}.`), body]))
    .digest('hex')}`;

const verify =
  (header: string, overrides: Partial<Parameters<typeof verifySignature>[0]> = {}) =>
  () =>
    verifySignature({
      header,
      headerName: 'Stripe-Signature',
      rawBody: BODY,
      secrets: [SECRET],
      toleranceSeconds: 300,
      now: NOW,
      ...overrides,
    });

const code = (run: () => void) => {
  try {
    run();
    return 'accepted';
  } catch (error) {
    return (error as { code: string }).code;
  }
};

describe('provider webhook signatures', () => {
  it('accept a header signed as Stripe signs: HMAC-SHA256 of "<t>." and the raw body', () => {
    expect(code(verify(stripeHeader(SECRET, BODY)))).toBe('accepted');
    expect(signPayload(SECRET, BODY, T)).toBe(stripeHeader(SECRET, BODY));
  });

  it('refuse a signature made with another secret', () => {
    expect(code(verify(stripeHeader('whsec_someone_else_0123456789abcdef', BODY)))).toBe('invalid_signature');
  });

  it('refuse a body changed after signing, even by one byte of whitespace', () => {
    expect(code(verify(stripeHeader(SECRET, BODY), { rawBody: Buffer.concat([BODY, Buffer.from(' ')]) }))).toBe('invalid_signature');
    const reserialised = Buffer.from(JSON.stringify(JSON.parse(BODY.toString()), null, 1));
    expect(code(verify(stripeHeader(SECRET, BODY), { rawBody: reserialised }))).toBe('invalid_signature');
  });

  it('refuse a timestamp more than 300 s old or ahead, and accept one at the edge', () => {
    expect(code(verify(stripeHeader(SECRET, BODY, T - 301)))).toBe('invalid_signature');
    expect(code(verify(stripeHeader(SECRET, BODY, T + 301)))).toBe('invalid_signature');
    expect(code(verify(stripeHeader(SECRET, BODY, T - 300)))).toBe('accepted');
  });

  it('refuse a missing, empty or malformed header', () => {
    for (const header of ['', 't=', `t=${T}`, 'v1=abc', `t=${T},v0=${'0'.repeat(64)}`, `t=soon,v1=${'0'.repeat(64)}`]) {
      expect(code(verify(header)), header).toBe('invalid_signature');
    }
  });

  it('accept any of several v1 signatures (the provider rolling its secret signs with both)', () => {
    const rolled = `${stripeHeader('whsec_the_old_secret_0123456789abcd', BODY)},v1=${stripeHeader(SECRET, BODY).split('v1=')[1]}`;
    expect(code(verify(rolled))).toBe('accepted');
    expect(signPayload(['whsec_the_old_secret_0123456789abcd', SECRET], BODY, T)).toBe(rolled);
  });

  it('accept a signature under either of the secrets kept (ours rotated: the previous one for a day)', () => {
    const header = stripeHeader('whsec_the_old_secret_0123456789abcd', BODY);
    expect(code(verify(header))).toBe('invalid_signature');
    expect(code(verify(header, { secrets: [SECRET, 'whsec_the_old_secret_0123456789abcd'] }))).toBe('accepted');
    expect(code(verify(header, { secrets: [] }))).toBe('invalid_signature');
  });
});
