import { createHmac, timingSafeEqual } from 'node:crypto';
import { AppError } from '@ctk/shared';

/**
 * The providers' signature header (docs/decisions/0019-provider-payments.md): `t=<unix seconds>,v1=<hex>`,
 * any number of `v1` (a provider rolling its secret signs with the old and the new one), other schemes
 * (`v0`) ignored. `v1` is HMAC-SHA256 under the endpoint secret of `<t>.` followed by the raw body bytes:
 * Stripe's scheme for the card provider (header `Stripe-Signature`), and ours for the wallet provider
 * (header `X-Wallet-Provider-Signature`).
 */
export type SignatureHeader = { timestamp: number; signatures: Buffer[] };

const MAX_SIGNATURES = 8;

export function parseSignatureHeader(header: string, name: string): SignatureHeader {
  let timestamp = Number.NaN;
  const signatures: Buffer[] = [];
  for (const part of header.split(',')) {
    const at = part.indexOf('=');
    const key = part.slice(0, at).trim();
    const value = part.slice(at + 1).trim();
    if (key === 't' && /^\d{1,12}$/.test(value)) timestamp = Number(value);
    if (key === 'v1' && /^[0-9a-f]{64}$/i.test(value) && signatures.length < MAX_SIGNATURES) signatures.push(Buffer.from(value, 'hex'));
  }
  if (!Number.isFinite(timestamp) || signatures.length === 0) {
    throw new AppError('invalid_signature', `Malformed ${name} header: expected t=<unix seconds>,v1=<hex HMAC-SHA256>.`);
  }
  return { timestamp, signatures };
}

/** HMAC-SHA256 of `<t>.` and the raw body under the secret (the secret's text as is, `whsec_` included). */
export function expectedSignature(secret: string, timestamp: number, rawBody: Uint8Array): Buffer {
  return createHmac('sha256', secret).update(`${timestamp}.`).update(rawBody).digest();
}

/**
 * Checks the header against the raw body: the timestamp within `toleranceSeconds` of now (either way),
 * and some v1 equal, in constant time, to the HMAC under one of the secrets. Throws invalid_signature;
 * answers the matching signature (hex), by which a replay of this very delivery is told.
 */
export function verifySignature(input: {
  header: string;
  headerName: string;
  rawBody: Uint8Array;
  secrets: string[];
  toleranceSeconds: number;
  now: Date;
}): string {
  const { timestamp, signatures } = parseSignatureHeader(input.header, input.headerName);
  if (Math.abs(input.now.getTime() / 1000 - timestamp) > input.toleranceSeconds) {
    throw new AppError('invalid_signature', `The signature's timestamp is outside the ${input.toleranceSeconds} s tolerance.`);
  }
  let match: Buffer | undefined;
  for (const secret of input.secrets) {
    const expected = expectedSignature(secret, timestamp, input.rawBody);
    // Every candidate is compared, so the time taken does not tell which one came close.
    for (const signature of signatures) {
      if (signature.length === expected.length && timingSafeEqual(signature, expected)) match ??= signature;
    }
  }
  if (!match)
    throw new AppError('invalid_signature', 'No signature in the header matches the body under the secret set for this provider.');
  return match.toString('hex');
}
