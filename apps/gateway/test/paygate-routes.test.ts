import { createPublicKey, randomBytes, verify as verifySignature } from 'node:crypto';
import { decodePaymentRequiredHeader } from '@x402/core/http';
import { PaymentRequiredV2Schema } from '@x402/core/schemas';
import { P2PKH } from '@bsv/sdk';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exampleOf, messageDesc } from '../src/contract/contract-registry.js';
import { addMember, bearer, onboard, startTestGateway, type Onboarded, type Gateway } from './harness.js';
import { createPaygateKey, minedCoins, paying } from './paygate-harness.js';
import { merchantKeys, startPaymailStack, type PaymailStack } from './paymail-harness.js';
import { expectError, SERVICES_DOWN, uniqueName } from './support.js';

/*
 * The payment gate's routes (spec 4.7) as the gateway serves them: who may call them, and the request
 * shapes (the contract's) it refuses itself, before p2p is asked (p2p is down for these, so a request the
 * gateway passes on is answered 503 `unavailable`: that is how they see it was passed on); then the gate
 * itself, with p2p, books and a local chain running, and p2p's rules, refused by p2p naming the field.
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

beforeAll(async () => {
  gateway = await startTestGateway(SERVICES_DOWN);
  owner = await onboard(gateway, uniqueName('Paygate'));
  paygateKey = (await createPaygateKey(owner, gateway)).key;
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
    const revoked = await createPaygateKey(owner, gateway);
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
  { label: 'no method', call: { method: 'POST', url: '/api/v1/402/resources', payload: without('method', RESOURCE) }, field: 'method' },
  { label: 'a NUL in the path', call: resource({ path: '/weather\u0000/*' }), field: 'path' },
  { label: 'a fractional price', call: resource({ price_satoshis: 1.5 }), field: 'price_satoshis' },
  { label: 'a price as a string', call: resource({ price_satoshis: '50' }), field: 'price_satoshis' },
  { label: 'no grant', call: { method: 'POST', url: '/api/v1/402/resources', payload: without('grant', RESOURCE) }, field: 'grant' },
  { label: 'a grant of calls without a count', call: resource({ grant: { kind: 'calls' } }), field: 'grant.calls' },
  {
    label: "a grant of 2^31 calls, beyond the contract's int32",
    call: resource({ grant: { kind: 'calls', calls: 2 ** 31 } }),
    field: 'grant.calls',
  },
  { label: 'a window given in calls', call: resource({ grant: { kind: 'window', seconds: 60, calls: 3 } }), field: 'grant.calls' },
  { label: 'a grant of another kind', call: resource({ grant: { kind: 'forever' } }), field: 'grant.kind' },
  { label: 'a NUL in the description', call: resource({ description: 'Ten forecasts\u0000' }), field: 'description' },
  { label: 'an unknown field', call: resource({ currency: 'USD' }), field: 'currency' },
  // A request to check.
  { label: 'a header value that is not a string', call: check({ headers: { 'x-bsv-vout': 0 } }), field: 'headers.x-bsv-vout' },
  { label: 'headers that are not an object', call: check({ headers: ['x-bsv-beef'] }), field: 'headers' },
  { label: 'an unknown field in a check', call: check({ body: 'hello' }), field: 'body' },
  // A payment to verify.
  { label: 'a transaction that is not base64', call: verify({ transaction: 'not base64!' }), field: 'transaction' },
  { label: 'a transaction in base64url', call: verify({ transaction: 'AQC-7w_4' }), field: 'transaction' },
  {
    label: 'no transaction',
    call: { method: 'POST', url: '/api/v1/402/verify', payload: without('transaction', PAYMENT) },
    field: 'transaction',
  },
  { label: 'a fractional vout', call: verify({ vout: 0.5 }), field: 'vout' },
  // Path and query.
  { label: 'a resource id that is not a UUID', call: { method: 'DELETE', url: '/api/v1/402/resources/weather' }, field: 'id' },
  { label: 'a page of 0 resources', call: { method: 'GET', url: '/api/v1/402/resources?limit=0' }, field: 'limit' },
  { label: 'a page of 101 payments', call: { method: 'GET', url: '/api/v1/402/payments?limit=101' }, field: 'limit' },
];

/** A request of the right shape breaking one of p2p's rules: the gateway passes it on, and p2p names the field (with the stack, below). */
const P2P_RULES: BadInput[] = [
  { label: 'a path not from "/"', call: resource({ path: 'weather/*' }), field: 'path' },
  { label: 'a path with a query', call: resource({ path: '/weather?city=oakland' }), field: 'path' },
  { label: 'a path with a fragment', call: resource({ path: '/weather#today' }), field: 'path' },
  { label: 'a "*" inside the path', call: resource({ path: '/wea*ther' }), field: 'path' },
  { label: 'a "*" not after "/"', call: resource({ path: '/weather*' }), field: 'path' },
  { label: 'a "/*" that does not end the path', call: resource({ path: '/weather/*/today' }), field: 'path' },
  { label: 'a path of 513 characters', call: resource({ path: `/${'w'.repeat(512)}` }), field: 'path' },
  { label: 'a bell in the path', call: resource({ path: '/weather\u0007/*' }), field: 'path' },
  { label: 'an escape in the path', call: resource({ path: '/weather\u001b[31m' }), field: 'path' },
  { label: 'a right-to-left override in the path', call: resource({ path: '/weather/\u202etxt.exe' }), field: 'path' },
  { label: 'a line feed in the path', call: resource({ path: '/weather\n/*' }), field: 'path' },
  { label: 'a space in the path', call: resource({ path: '/weather today' }), field: 'path' },
  { label: 'a price of 0', call: resource({ price_satoshis: 0 }), field: 'price_satoshis' },
  { label: 'a price above all bitcoin', call: resource({ price_satoshis: 2_100_000_000_000_001 }), field: 'price_satoshis' },
  { label: 'a grant of 0 calls', call: resource({ grant: { kind: 'calls', calls: 0 } }), field: 'grant.calls' },
  { label: 'a grant of a million and one calls', call: resource({ grant: { kind: 'calls', calls: 1_000_001 } }), field: 'grant.calls' },
  { label: 'a window of 0 seconds', call: resource({ grant: { kind: 'window', seconds: 0 } }), field: 'grant.seconds' },
  { label: 'a window longer than a year', call: resource({ grant: { kind: 'window', seconds: 31_536_001 } }), field: 'grant.seconds' },
  { label: 'a description of 501 characters', call: resource({ description: 'w'.repeat(501) }), field: 'description' },
  { label: 'a bell in the description', call: resource({ description: 'Ten forecasts\u0007' }), field: 'description' },
  { label: 'a right-to-left override in the description', call: resource({ description: 'Ten \u202estsacerof' }), field: 'description' },
  { label: 'a lower-case method', call: resource({ method: 'get' }), field: 'method' },
  { label: 'a method the gate does not price', call: resource({ method: 'HEAD' }), field: 'method' },
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
  { label: 'a payee key that is not a compressed key', call: check({ payee_key: `04${'ab'.repeat(64)}` }), field: 'payee_key' },
  // A payment to verify.
  { label: 'an empty transaction', call: verify({ transaction: '' }), field: 'transaction' },
  { label: 'a negative vout', call: verify({ vout: -1 }), field: 'vout' },
  { label: 'a vout above 100000', call: verify({ vout: 100_001 }), field: 'vout' },
  { label: 'a nonce with "+"', call: verify({ nonce: 'q7Lh0V3p+9cJ2mR8tY4wKA' }), field: 'nonce' },
  { label: 'a nonce of 129 characters', call: verify({ nonce: 'n'.repeat(129) }), field: 'nonce' },
  { label: 'an uncompressed sender key', call: verify({ sender: `04${'ab'.repeat(64)}`, time: '1795511100000' }), field: 'sender' },
  { label: 'a sender without a time', call: verify({ sender: SENDER }), field: 'time' },
  { label: 'a time that is not digits', call: verify({ sender: SENDER, time: '2026-11-24T09:05:00Z' }), field: 'time' },
  { label: 'neither a nonce nor a sender and time', call: verify({ nonce: undefined }), field: 'nonce' },
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
      check({ url: '/weather/today?city=oakland', payee_key: SENDER }),
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

/** A compact JWS's signature, checked as the middleware checks it: with the published key its header names. */
function signedBy(token: string, keys: Array<{ kid: string; x: string }>): boolean {
  const [header, claims, signature] = token.split('.') as [string, string, string];
  const { kid } = JSON.parse(Buffer.from(header, 'base64url').toString('utf8')) as { kid: string };
  const jwk = keys.find((key) => key.kid === kid);
  if (!jwk) return false;
  const publicKey = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: jwk.x }, format: 'jwk' });
  return verifySignature(null, Buffer.from(`${header}.${claims}`), publicKey, Buffer.from(signature, 'base64url'));
}

/** The published keys the contract documents. */
const publishedKeys = () => (exampleOf(messageDesc('ctk.p2p.v1.PaygateKeys')) as { keys: Array<{ kid: string; x: string }> }).keys;

/** The credential the contract documents, alone and in a verified payment. */
const documentedCredentials = () => [
  exampleOf(messageDesc('ctk.p2p.v1.GateCredential')) as { token: string },
  (exampleOf(messageDesc('ctk.p2p.v1.VerifyGatePaymentResponse')) as { credential: { token: string } }).credential,
];

it('the documented credential is signed with the documented published key', () => {
  for (const credential of documentedCredentials()) {
    expect(signedBy(credential.token, publishedKeys())).toBe(true);
    expect(signedBy(credential.token.replace(/\.[^.]+$/, `.${Buffer.alloc(64).toString('base64url')}`), publishedKeys())).toBe(false);
  }
});

describe('the payment gate, with p2p and a local chain', () => {
  let stack: PaymailStack;
  const keys = merchantKeys();
  let merchant: Onboarded;
  let key: string;
  let otherKey: string;
  let noWalletKey: string;
  let verifiedPayment: Record<string, unknown> | undefined;

  const as = (secret: string, call: Call) =>
    stack.gateway.app.inject({
      method: call.method,
      url: call.url,
      headers: bearer(secret),
      ...(call.payload === undefined ? {} : { payload: call.payload as object }),
    });
  const price = (secret: string, path: string, fields: Record<string, unknown> = {}) =>
    as(secret, { method: 'POST', url: '/api/v1/402/resources', payload: { ...RESOURCE, path, ...fields } });
  const checkUrl = (url: string, headers: Record<string, string> = {}, secret = key) =>
    as(secret, { method: 'POST', url: '/api/v1/402/check', payload: { method: 'GET', url, headers } });
  const listed = async (secret: string, path: '/api/v1/402/resources' | '/api/v1/402/payments') => {
    const answer = await as(secret, { method: 'GET', url: path });
    expect(answer.statusCode).toBe(200);
    return answer.json().data as Array<Record<string, unknown>>;
  };
  const published = () => stack.gateway.app.inject({ method: 'GET', url: '/.well-known/ctk-paygate.json' });
  /** The m/0/n child of the merchant's xpub whose P2PKH `lockingScript` is, searched within the gap limit. */
  const childPaidBy = (lockingScript: string) => {
    for (let n = 0; n < 40; n++) {
      const child = keys.account.derive(`m/0/${n}`).pubKey;
      if (new P2PKH().lock(child.toHash()).toHex() === lockingScript) return { n, publicKey: child.toString() };
    }
    return undefined;
  };

  beforeAll(async () => {
    stack = await startPaymailStack();
    merchant = await onboard(stack.gateway, uniqueName('Blue Bottle Weather'));
    const patched = await stack.gateway.app.inject({
      method: 'PATCH',
      url: `/api/v1/organizations/${merchant.handle}`,
      headers: bearer(merchant.key),
      payload: { wallet_xpub: keys.xpub },
    });
    expect(patched.statusCode).toBe(200);
    key = (await createPaygateKey(merchant, stack.gateway)).key;
    otherKey = (await createPaygateKey(await onboard(stack.gateway, uniqueName('Other Gate')), stack.gateway)).key;
    noWalletKey = (await createPaygateKey(await onboard(stack.gateway, uniqueName('No Wallet')), stack.gateway)).key;
  });
  afterAll(() => stack?.close());

  it.each(P2P_RULES)('$label: p2p refuses it, 422 naming $field', async ({ call, field }) => {
    const response = await as(key, call);
    expectError(response, 422, 'validation_failed');
    const details = response.json().error.details as { field: string; issues: Array<{ field: string }> };
    expect(details.issues.map((issue) => issue.field)).toContain(field);
  });

  it('prices a URL, lists it, refuses the same method and path twice, and removes it with 204; another account sees none of it', async () => {
    const created = await price(key, '/forecast/*', { grant: { kind: 'window', seconds: 3600 }, description: 'An hour of forecasts' });
    expect(created.statusCode).toBe(201);
    const resource = created.json();
    expect(resource).toEqual({
      id: expect.any(String),
      method: 'GET',
      path: '/forecast/*',
      price_satoshis: 50,
      grant: { kind: 'window', seconds: 3600 },
      description: 'An hour of forecasts',
      created_at: expect.any(String),
    });
    expect((await listed(key, '/api/v1/402/resources')).map((row) => row.id)).toContain(resource.id);
    expectError(await price(key, '/forecast/*'), 409, 'already_exists');

    const url = `/api/v1/402/resources/${resource.id}`;
    expect(await listed(otherKey, '/api/v1/402/resources')).toEqual([]);
    expectError(await as(otherKey, { method: 'DELETE', url }), 404, 'not_found');
    const removed = await as(key, { method: 'DELETE', url });
    expect({ status: removed.statusCode, body: removed.body }).toEqual({ status: 204, body: '' });
    expect((await listed(key, '/api/v1/402/resources')).map((row) => row.id)).not.toContain(resource.id);
    expectError(await as(key, { method: 'DELETE', url }), 404, 'not_found');
  });

  it("is the organisation's in the back office too: its members read the resources and payments the key's account has, admins price and remove, staff may not, another organisation's members see none", async () => {
    const orgUrl = (rest: string) => `/api/v1/orgs/${merchant.handle}/402/${rest}`;
    const staff = await addMember(stack.gateway, merchant, 'staff');
    const created = await as(merchant.key, { method: 'POST', url: orgUrl('resources'), payload: { ...RESOURCE, path: '/tides/*' } });
    expect(created.statusCode).toBe(201);
    const resource = created.json();
    expect(resource).toMatchObject({ path: '/tides/*', price_satoshis: 50, grant: { kind: 'calls', calls: 10 } });
    // One account: the key sees what the back office priced, and the back office what the key did.
    expect((await listed(key, '/api/v1/402/resources')).map((row) => row.id)).toContain(resource.id);
    const read = await as(staff.key, { method: 'GET', url: orgUrl('resources') });
    expect(read.statusCode).toBe(200);
    expect(read.json().data).toEqual(await listed(key, '/api/v1/402/resources'));
    const payments = await as(staff.key, { method: 'GET', url: orgUrl('payments') });
    expect(payments.json().data).toEqual(await listed(key, '/api/v1/402/payments'));

    expectError(
      await as(staff.key, { method: 'POST', url: orgUrl('resources'), payload: { ...RESOURCE, path: '/staff/*' } }),
      403,
      'forbidden',
    );
    expectError(await as(staff.key, { method: 'DELETE', url: orgUrl(`resources/${resource.id}`) }), 403, 'forbidden');
    const other = await onboard(stack.gateway, uniqueName('Other Shop'));
    expectError(await as(other.key, { method: 'GET', url: orgUrl('resources') }), 403, 'forbidden');
    // Its own organisation has no payment-gate key yet: said in words, and nothing is made.
    const none = await as(other.key, { method: 'GET', url: `/api/v1/orgs/${other.handle}/402/resources` });
    expectError(none, 409, 'failed_precondition');
    expect(none.json().error.message).toContain('make a payment-gate key first');
    expectError(
      await as(other.key, { method: 'DELETE', url: `/api/v1/orgs/${other.handle}/402/resources/${resource.id}` }),
      409,
      'failed_precondition',
    );

    const removed = await as(merchant.key, { method: 'DELETE', url: orgUrl(`resources/${resource.id}`) });
    expect(removed.statusCode).toBe(204);
    expect((await listed(key, '/api/v1/402/resources')).map((row) => row.id)).not.toContain(resource.id);
  });

  it('answers a bare request to a priced URL with the 402 to pass on: three headers and the x402 body, paying a fresh child of the xpub', async () => {
    expect((await price(key, '/weather/*')).statusCode).toBe(201);
    const url = 'https://api.bluebottle.example/weather/today?city=oakland';
    const answer = await checkUrl(url);
    expect(answer.statusCode).toBe(200);
    const check = answer.json();
    expect(check).toMatchObject({ outcome: 'payment_required', status: 402 });
    expect(Object.keys(check.headers).sort()).toEqual(['payment-required', 'x-bsv-sats', 'x-bsv-server']);
    expect(check.headers['x-bsv-sats']).toBe('50');
    expect(JSON.parse(Buffer.from(check.headers['payment-required'], 'base64').toString('utf8'))).toEqual(check.body);
    expect(check.body).toMatchObject({ x402Version: 2, resource: { url }, accepts: [{ scheme: 'exact', amount: '50', asset: 'BSV' }] });
    // x402's own published schema (PaymentRequiredV2Schema), on the body and on the header the client decodes.
    expect(PaymentRequiredV2Schema.safeParse(check.body).error).toBeUndefined();
    expect(decodePaymentRequiredHeader(check.headers['payment-required'])).toEqual(PaymentRequiredV2Schema.parse(check.body));
    expect(check.body.accepts[0].network).toBe('bsv:local');
    const offer = check.body.accepts[0];
    const child = childPaidBy(offer.extra.lockingScript);
    expect(child, 'the 402 pays a child m/0/n of the merchant xpub').toBeDefined();
    expect(offer.extra.serverKey).toBe(child!.publicKey);
    expect(check.headers['x-bsv-server']).toBe(child!.publicKey);

    // Each 402 is a new payment request: another nonce and another child.
    const again = (await checkUrl(url)).json();
    expect(again.body.accepts[0].extra.nonce).not.toBe(offer.extra.nonce);
    expect(childPaidBy(again.body.accepts[0].extra.lockingScript)!.n).not.toBe(child!.n);
  });

  it('answers a URL with no price free, and a priced URL of an organisation without an xpub 409', async () => {
    expect((await checkUrl('/menu')).json()).toEqual({ outcome: 'free', status: 200, headers: {} });
    expect((await price(noWalletKey, '/weather/*')).statusCode).toBe(201);
    expectError(await checkUrl('/weather/today', {}, noWalletKey), 409, 'failed_precondition');
  });

  it('publishes one signing key to anyone, briefly cached', async () => {
    const answer = await published();
    expect(answer.statusCode).toBe(200);
    const document = answer.json();
    expect(document).toEqual({
      issuer: stack.base,
      keys: [{ kid: expect.any(String), alg: 'EdDSA', crv: 'Ed25519', x: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/) }],
      revoked: { resources: expect.any(Array), credentials: expect.any(Array) },
      max_age_seconds: 30,
    });
    expect(answer.headers['cache-control']).toBe('public, max-age=30');
  });

  it('verifies a payment of a 402 (x402, by nonce): a payment and a credential the published key signed; the transaction pays once', async () => {
    expect((await price(key, '/radar', { price_satoshis: 120 })).statusCode).toBe(201);
    const offer = (await checkUrl('/radar')).json().body.accepts[0];

    // A customer's coin from the faucet, mined, so the BEEF proves it.
    const [coin] = await minedCoins(stack, 1);
    const tx = await paying(coin!, offer.extra.lockingScript, 120);
    const payment = { transaction: Buffer.from(tx.toBEEF()).toString('base64'), vout: 0, nonce: offer.extra.nonce };

    const verified = await as(key, { method: 'POST', url: '/api/v1/402/verify', payload: payment });
    expect(verified.statusCode).toBe(200);
    const { payment: paid, credential } = verified.json();
    expect(paid).toMatchObject({ txid: tx.id('hex'), vout: 0, satoshis: 120, protocol: 'x402', path: '/radar', calls: 10 });
    expect(childPaidBy(offer.extra.lockingScript)).toMatchObject({ n: paid.derivation_index });
    expect(credential).toMatchObject({ calls: 10, expires_at: paid.expires_at });

    // The middleware's check: the signature under the published key of that kid.
    expect(signedBy(credential.token, (await published()).json().keys)).toBe(true);
    const claims = (credential.token as string).split('.')[1]!;
    expect(JSON.parse(Buffer.from(claims, 'base64url').toString('utf8'))).toMatchObject({ jti: paid.id, pth: '/radar', calls: 10 });

    const { pay_to: _payTo, ...sameFields } = paid;
    expect((await listed(key, '/api/v1/402/payments'))[0]).toMatchObject(sameFields);
    expect(await listed(otherKey, '/api/v1/402/payments')).toEqual([]);
    const withCredential = (await checkUrl('/radar', { 'x-ctk-credential': credential.token })).json();
    expect(withCredential).toMatchObject({ outcome: 'paid', status: 200, payment: { id: paid.id } });
    expectError(await as(key, { method: 'POST', url: '/api/v1/402/verify', payload: payment }), 409, 'txid_already_used');
    verifiedPayment = paid;
  });

  it('removing a paid resource publishes its revocation, for the middleware that checks its credentials', async () => {
    expect(verifiedPayment, 'the payment of the test above').toBeDefined();
    const resourceId = verifiedPayment!.resource_id as string;
    expect((await published()).json().revoked.resources).not.toContain(resourceId);
    expect((await as(key, { method: 'DELETE', url: `/api/v1/402/resources/${resourceId}` })).statusCode).toBe(204);
    expect((await published()).json().revoked.resources).toContain(resourceId);
  });

  it('names the address a verified payment paid, in the answer to /verify as in the list', async () => {
    expect(verifiedPayment, 'the payment of the test above').toBeDefined();
    const listedPayment = (await listed(key, '/api/v1/402/payments')).find((row) => row.id === verifiedPayment!.id);
    expect(listedPayment?.pay_to).toMatch(/^[mn1][1-9A-HJ-NP-Za-km-z]{25,34}$/);
    expect(verifiedPayment!.pay_to).toBe(listedPayment?.pay_to);
  });
});
