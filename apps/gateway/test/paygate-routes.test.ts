import { randomBytes } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Gateway } from '../src/app.js';
import { bearer, onboard, startTestGateway, type Onboarded } from './harness.js';
import { expectError, SERVICES_DOWN, uniqueName } from './support.js';

/*
 * The payment gate's routes (spec 4.7) as the gateway serves them: who may call them, and the request
 * shapes it refuses itself, before p2p is asked. p2p is down here, so a request the gateway passes on is
 * answered 503 `unavailable`: that is how these tests see that it was passed on.
 */

type Method = 'GET' | 'POST' | 'DELETE';
type Call = { method: Method; url: string; payload?: unknown };

let gateway: Gateway;
let owner: Onboarded;
let paygateKey: string;

const RESOURCE = { method: 'GET', path: '/weather/*', price_satoshis: 50, grant: { kind: 'calls', calls: 10 } };
const PAYMENT = { transaction: Buffer.from('a BEEF would be here').toString('base64'), vout: 0, nonce: 'q7Lh0V3pX9cJ2mR8tY4wKA' };
const SENDER = `02${'ab'.repeat(32)}`;

/** One call of each of the six routes, with a body the gateway passes on. */
const ROUTES: Call[] = [
  { method: 'GET', url: '/api/v1/402/resources' },
  { method: 'POST', url: '/api/v1/402/resources', payload: RESOURCE },
  { method: 'DELETE', url: '/api/v1/402/resources/6f1d2c3b-4a59-4e8f-9b7a-0c1d2e3f4a5b' },
  { method: 'POST', url: '/api/v1/402/check', payload: { method: 'GET', url: '/weather/today' } },
  { method: 'POST', url: '/api/v1/402/verify', payload: PAYMENT },
  { method: 'GET', url: '/api/v1/402/payments' },
];

function send(call: Call, headers: Record<string, string> = {}): Promise<LightMyRequestResponse> {
  return gateway.app.inject({
    method: call.method,
    url: call.url,
    headers,
    ...(call.payload === undefined ? {} : { payload: call.payload as object }),
  });
}

async function createPaygateKey(of: Onboarded): Promise<{ id: string; key: string }> {
  const created = await gateway.app.inject({
    method: 'POST',
    url: `/api/v1/orgs/${of.handle}/paygate-keys`,
    headers: bearer(of.key),
    payload: { name: 'weather API' },
  });
  expect(created.statusCode).toBe(201);
  return { id: created.json().id, key: created.json().key };
}

beforeAll(async () => {
  gateway = await startTestGateway(SERVICES_DOWN);
  owner = await onboard(gateway, uniqueName('Paygate'));
  paygateKey = (await createPaygateKey(owner)).key;
});
afterAll(async () => {
  await gateway?.close();
});

describe('who may call the payment gate', () => {
  it.each(ROUTES)('$method $url without a key answers 401 unauthenticated', async (call) => {
    expectError(await send(call), 401, 'unauthenticated');
  });

  it.each(ROUTES)("$method $url with a user's API key answers 401 invalid_api_key", async (call) => {
    expectError(await send(call, bearer(owner.key)), 401, 'invalid_api_key');
  });

  it.each(ROUTES)('$method $url with a commerce key answers 401, in its own header or as a bearer key', async (call) => {
    const rotated = await gateway.app.inject({
      method: 'POST',
      url: `/api/v1/orgs/${owner.handle}/commerce-key`,
      headers: bearer(owner.key),
    });
    const commerceKey = rotated.json().commerce_public_key as string;
    expectError(await send(call, { 'x-commerce-key': commerceKey }), 401, 'unauthenticated');
    expectError(await send(call, bearer(commerceKey)), 401, 'invalid_api_key');
  });

  it.each(ROUTES)('$method $url with a revoked or unknown payment-gate key answers 401 invalid_api_key', async (call) => {
    const revoked = await createPaygateKey(owner);
    const revocation = await gateway.app.inject({
      method: 'DELETE',
      url: `/api/v1/orgs/${owner.handle}/paygate-keys/${revoked.id}`,
      headers: bearer(owner.key),
    });
    expect(revocation.statusCode).toBe(200);
    expectError(await send(call, bearer(revoked.key)), 401, 'invalid_api_key');
    expectError(await send(call, bearer(`ctk_pg_${randomBytes(32).toString('base64url')}`)), 401, 'invalid_api_key');
  });

  it.each(ROUTES)('$method $url with a payment-gate key is passed on to p2p (down here: 503)', async (call) => {
    const response = await send(call, bearer(paygateKey));
    expectError(response, 503, 'unavailable');
    expect(response.headers['cache-control']).toBe('no-store');
    // A secret key's routes are not for browsers on other sites.
    expect(response.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('the published keys need no key, and are passed on to p2p', async () => {
    const response = await gateway.app.inject({ method: 'GET', url: '/.well-known/ctk-paygate.json' });
    expectError(response, 503, 'unavailable');
  });
});

type BadInput = { label: string; call: Call; field: string };

const resource = (change: Record<string, unknown>): Call => ({
  method: 'POST',
  url: '/api/v1/402/resources',
  payload: { ...RESOURCE, ...change },
});
const check = (change: Record<string, unknown>): Call => ({
  method: 'POST',
  url: '/api/v1/402/check',
  payload: { method: 'GET', url: 'https://api.bluebottle.example/weather/today', ...change },
});
const verify = (change: Record<string, unknown>): Call => ({
  method: 'POST',
  url: '/api/v1/402/verify',
  payload: { ...PAYMENT, ...change },
});
const without = (field: string, payload: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(payload).filter(([key]) => key !== field));

const BAD_INPUT: BadInput[] = [
  // A priced resource.
  { label: 'a lower-case method', call: resource({ method: 'get' }), field: 'method' },
  { label: 'a method the gate does not price', call: resource({ method: 'HEAD' }), field: 'method' },
  { label: 'no method', call: { method: 'POST', url: '/api/v1/402/resources', payload: without('method', RESOURCE) }, field: 'method' },
  { label: 'a path not from "/"', call: resource({ path: 'weather/*' }), field: 'path' },
  { label: 'a path with a query', call: resource({ path: '/weather?city=oakland' }), field: 'path' },
  { label: 'a path with a fragment', call: resource({ path: '/weather#today' }), field: 'path' },
  { label: 'a "*" inside the path', call: resource({ path: '/wea*ther' }), field: 'path' },
  { label: 'a "*" not after "/"', call: resource({ path: '/weather*' }), field: 'path' },
  { label: 'a "/*" that does not end the path', call: resource({ path: '/weather/*/today' }), field: 'path' },
  { label: 'a path of 513 characters', call: resource({ path: `/${'w'.repeat(512)}` }), field: 'path' },
  { label: 'a NUL in the path', call: resource({ path: '/weather\u0000/*' }), field: 'path' },
  { label: 'a bell in the path', call: resource({ path: '/weather\u0007/*' }), field: 'path' },
  { label: 'an escape in the path', call: resource({ path: '/weather\u001b[31m' }), field: 'path' },
  { label: 'a right-to-left override in the path', call: resource({ path: '/weather/\u202etxt.exe' }), field: 'path' },
  { label: 'a line feed in the path', call: resource({ path: '/weather\n/*' }), field: 'path' },
  { label: 'a space in the path', call: resource({ path: '/weather today' }), field: 'path' },
  { label: 'a price of 0', call: resource({ price_satoshis: 0 }), field: 'price_satoshis' },
  { label: 'a fractional price', call: resource({ price_satoshis: 1.5 }), field: 'price_satoshis' },
  { label: 'a price above all bitcoin', call: resource({ price_satoshis: 2_100_000_000_000_001 }), field: 'price_satoshis' },
  { label: 'a price as a string', call: resource({ price_satoshis: '50' }), field: 'price_satoshis' },
  { label: 'no grant', call: { method: 'POST', url: '/api/v1/402/resources', payload: without('grant', RESOURCE) }, field: 'grant' },
  { label: 'a grant of 0 calls', call: resource({ grant: { kind: 'calls', calls: 0 } }), field: 'grant.calls' },
  { label: 'a grant of a million and one calls', call: resource({ grant: { kind: 'calls', calls: 1_000_001 } }), field: 'grant.calls' },
  { label: 'a grant of calls without a count', call: resource({ grant: { kind: 'calls' } }), field: 'grant.calls' },
  { label: 'a window of 0 seconds', call: resource({ grant: { kind: 'window', seconds: 0 } }), field: 'grant.seconds' },
  { label: 'a window longer than a year', call: resource({ grant: { kind: 'window', seconds: 31_536_001 } }), field: 'grant.seconds' },
  { label: 'a window given in calls', call: resource({ grant: { kind: 'window', seconds: 60, calls: 3 } }), field: 'grant.calls' },
  { label: 'a grant of another kind', call: resource({ grant: { kind: 'forever' } }), field: 'grant.kind' },
  { label: 'a description of 501 characters', call: resource({ description: 'w'.repeat(501) }), field: 'description' },
  { label: 'a NUL in the description', call: resource({ description: 'Ten forecasts\u0000' }), field: 'description' },
  { label: 'a bell in the description', call: resource({ description: 'Ten forecasts\u0007' }), field: 'description' },
  { label: 'a right-to-left override in the description', call: resource({ description: 'Ten \u202estsacerof' }), field: 'description' },
  { label: 'an unknown field', call: resource({ currency: 'USD' }), field: 'currency' },
  // A request to check.
  { label: 'a lower-case request method', call: check({ method: 'get' }), field: 'method' },
  { label: 'a URL that is neither absolute nor from "/"', call: check({ url: 'weather/today' }), field: 'url' },
  { label: 'a URL of another scheme', call: check({ url: 'ftp://api.bluebottle.example/weather' }), field: 'url' },
  { label: 'a URL from "//" (another host)', call: check({ url: '//evil.example/weather' }), field: 'url' },
  { label: 'a URL of 4097 characters', call: check({ url: `/${'w'.repeat(4096)}` }), field: 'url' },
  { label: 'a URL with a space', call: check({ url: '/weather today' }), field: 'url' },
  {
    label: 'a header that is not a payment header',
    call: check({ headers: { 'x-forwarded-for': '203.0.113.7' } }),
    field: 'headers.x-forwarded-for',
  },
  { label: 'an authorization header', call: check({ headers: { authorization: 'Bearer secret' } }), field: 'headers.authorization' },
  { label: 'a payment header not in lower case', call: check({ headers: { 'X-BSV-BEEF': 'AQC+7w==' } }), field: 'headers.X-BSV-BEEF' },
  { label: 'a header value that is not a string', call: check({ headers: { 'x-bsv-vout': 0 } }), field: 'headers.x-bsv-vout' },
  { label: 'headers that are not an object', call: check({ headers: ['x-bsv-beef'] }), field: 'headers' },
  { label: 'an unknown field in a check', call: check({ body: 'hello' }), field: 'body' },
  // A payment to verify.
  { label: 'a transaction that is not base64', call: verify({ transaction: 'not base64!' }), field: 'transaction' },
  { label: 'a transaction in base64url', call: verify({ transaction: 'AQC-7w_4' }), field: 'transaction' },
  { label: 'an empty transaction', call: verify({ transaction: '' }), field: 'transaction' },
  {
    label: 'no transaction',
    call: { method: 'POST', url: '/api/v1/402/verify', payload: without('transaction', PAYMENT) },
    field: 'transaction',
  },
  { label: 'a negative vout', call: verify({ vout: -1 }), field: 'vout' },
  { label: 'a vout above 100000', call: verify({ vout: 100_001 }), field: 'vout' },
  { label: 'a fractional vout', call: verify({ vout: 0.5 }), field: 'vout' },
  { label: 'a nonce with "+"', call: verify({ nonce: 'q7Lh0V3p+9cJ2mR8tY4wKA' }), field: 'nonce' },
  { label: 'a nonce of 129 characters', call: verify({ nonce: 'n'.repeat(129) }), field: 'nonce' },
  { label: 'an uncompressed sender key', call: verify({ sender: `04${'ab'.repeat(64)}`, time: '1795511100000' }), field: 'sender' },
  { label: 'a sender without a time', call: verify({ sender: SENDER }), field: 'time' },
  { label: 'a time that is not digits', call: verify({ sender: SENDER, time: '2026-11-24T09:05:00Z' }), field: 'time' },
  { label: 'neither a nonce nor a sender and time', call: verify({ nonce: undefined }), field: 'nonce' },
  // Path and query.
  { label: 'a resource id that is not a UUID', call: { method: 'DELETE', url: '/api/v1/402/resources/weather' }, field: 'id' },
  { label: 'a page of 0 resources', call: { method: 'GET', url: '/api/v1/402/resources?limit=0' }, field: 'limit' },
  { label: 'a page of 101 payments', call: { method: 'GET', url: '/api/v1/402/payments?limit=101' }, field: 'limit' },
];

describe('request shapes the gateway refuses before asking p2p', () => {
  it.each(BAD_INPUT)('$label: 422 naming $field', async ({ call, field }) => {
    const response = await send(call, bearer(paygateKey));
    expectError(response, 422, 'validation_failed');
    const details = response.json().error.details as { field: string; issues: Array<{ field: string }> };
    expect(details.issues.map((issue) => issue.field)).toContain(field);
  });

  it.each([
    ['the x402 form (a nonce)', PAYMENT],
    ['the BRC-121 form (sender and time, no nonce)', { ...without('nonce', PAYMENT), sender: SENDER, time: '1795511100000' }],
  ])('passes on a payment in %s', async (_label, payload) => {
    expectError(await send({ method: 'POST', url: '/api/v1/402/verify', payload }, bearer(paygateKey)), 503, 'unavailable');
  });

  it('passes on a check carrying each payment header, and a resource with a window, any method and an exact path', async () => {
    const headers = {
      'x-bsv-beef': PAYMENT.transaction,
      'x-bsv-sender': SENDER,
      'x-bsv-nonce': 'bm9uY2U=',
      'x-bsv-time': '1795511100000',
      'x-bsv-vout': '0',
      'payment-signature': Buffer.from('{"x402Version":2}').toString('base64'),
      'x-ctk-credential': 'eyJhbGciOiJFZERTQSJ9.e30.c2ln',
    };
    for (const call of [
      check({ headers }),
      check({ url: '/weather/today?city=oakland' }),
      resource({ method: '*', path: '/weather/today', grant: { kind: 'window', seconds: 3600 }, description: 'Two\nlines' }),
      resource({ path: '/*' }),
    ])
      expectError(await send(call, bearer(paygateKey)), 503, 'unavailable');
  });
});

describe('body sizes', () => {
  const beef = (bytes: number) => Buffer.alloc(bytes, 7).toString('base64');

  it('takes a BEEF of 2 MB in a check or a payment, beyond the 256 KiB other routes take', async () => {
    const big = beef(2_000_000);
    expectError(await send(check({ headers: { 'x-bsv-beef': big } }), bearer(paygateKey)), 503, 'unavailable');
    expectError(await send(verify({ transaction: big }), bearer(paygateKey)), 503, 'unavailable');
  });

  it('refuses a check or a payment over 4 MB, and a priced resource over 256 KiB, with 413', async () => {
    expectError(await send(check({ headers: { 'x-bsv-beef': beef(3_100_000) } }), bearer(paygateKey)), 413, 'payload_too_large');
    expectError(await send(verify({ transaction: beef(3_100_000) }), bearer(paygateKey)), 413, 'payload_too_large');
    expectError(await send(resource({ description: 'w'.repeat(300_000) }), bearer(paygateKey)), 413, 'payload_too_large');
  });
});
