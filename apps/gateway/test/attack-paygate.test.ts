import { createHmac, generateKeyPairSync, randomBytes, sign } from 'node:crypto';
import { MerklePath, P2PKH, PrivateKey, Transaction } from '@bsv/sdk';
import { mineBlocks } from '@ctk/chain/local';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, onboard, type Onboarded } from './harness.js';
import { createPaygateKey, minedCoins, paying, type Coin } from './paygate-harness.js';
import { merchantKeys, startPaymailStack, type PaymailStack } from './paymail-harness.js';
import { expectError, expectRefused, uniqueName } from './support.js';

/*
 * An attacker's pass over the payment gate (spec 4.7, decision 0021) through the real gateway, p2p, books
 * and a local chain: odd bytes in every field, path, query and header, the paygate key spelled another
 * way, another account's ids, nonces, payments and credentials, forged and spent credentials, and
 * payments that do not pay what they claim. Every refusal is a 4xx with a stable code or a 402 naming
 * why; nothing is paid, broadcast or written half; nothing of another account is answered.
 */

type Merchant = Onboarded & { paygateKey: string; keys: ReturnType<typeof merchantKeys> };

let stack: PaymailStack;
let cafe: Merchant;
let other: Merchant;
let coins: Coin[];

/** A coin of its own for each payment below. */
const coin = () => {
  const next = coins.shift();
  if (!next) throw new Error('more payments than coins: raise the count in beforeAll');
  return next;
};

async function merchant(label: string): Promise<Merchant> {
  const owner = await onboard(stack.gateway, uniqueName(label));
  const keys = merchantKeys();
  const patched = await stack.gateway.app.inject({
    method: 'PATCH',
    url: `/api/v1/organizations/${owner.handle}`,
    headers: bearer(owner.key),
    payload: { wallet_xpub: keys.xpub },
  });
  expect(patched.statusCode).toBe(200);
  return { ...owner, keys, paygateKey: (await createPaygateKey(owner, stack.gateway)).key };
}

beforeAll(async () => {
  // Hundreds of unpaid 402s for resources of their own: a wallet scanning 200 addresses ahead keeps them
  // under the anonymous cap, whose own test is one-address-one-purpose.test.ts.
  stack = await startPaymailStack({ p2pEnv: { P2P_GAP_LIMIT: '200' } });
  cafe = await merchant('Attack Weather');
  other = await merchant('Other Weather');
  coins = await minedCoins(stack, 26);
}, 60_000);
afterAll(() => stack?.close());

const as = (key: string, method: 'GET' | 'POST' | 'DELETE', url: string, payload?: unknown, headers: Record<string, string> = {}) =>
  stack.gateway.app.inject({
    method,
    url,
    headers: { ...bearer(key), ...headers },
    ...(payload === undefined ? {} : { payload: payload as object }),
  });

const RESOURCE = { method: 'GET', price_satoshis: 5, grant: { kind: 'calls', calls: 10 } };

async function price(of: Merchant, path: string, fields: Record<string, unknown> = {}): Promise<{ id: string; path: string }> {
  const created = await as(of.paygateKey, 'POST', '/api/v1/402/resources', { ...RESOURCE, path, ...fields });
  expect(created.statusCode, created.body).toBe(201);
  return created.json();
}

const check = (of: Merchant, url: string, headers: Record<string, string> = {}, extra: Record<string, unknown> = {}) =>
  as(of.paygateKey, 'POST', '/api/v1/402/check', { method: 'GET', url, headers, ...extra });
const verify = (of: Merchant, payload: Record<string, unknown>) => as(of.paygateKey, 'POST', '/api/v1/402/verify', payload);

type Offer = { scheme: string; network: string; amount: string; payTo: string; extra: { nonce: string; lockingScript: string } };

/** The payment request of a 402 answered through /check. */
async function offerFor(of: Merchant, url: string): Promise<Offer> {
  const answer = await check(of, url);
  expect(answer.json(), answer.body).toMatchObject({ outcome: 'payment_required', status: 402 });
  return answer.json().body.accepts[0];
}

const base64 = (tx: Transaction) => Buffer.from(tx.toBEEF()).toString('base64');

/** x402's PAYMENT-SIGNATURE for an offer, carrying `tx` (its vout left out unless given). */
function x402(offer: Offer, tx: Transaction | string, vout?: number): string {
  const transaction = typeof tx === 'string' ? tx : base64(tx);
  const payload = { x402Version: 2, accepted: offer, payload: { transaction, ...(vout === undefined ? {} : { vout }) } };
  return Buffer.from(JSON.stringify(payload)).toString('base64');
}

/** A payment of a 402 through /check, as the middleware passes one on: the answer and the transaction. */
async function pay(of: Merchant, url: string, spend: Coin = coin()) {
  const offer = await offerFor(of, url);
  const tx = await paying(spend, offer.extra.lockingScript, Number(offer.amount));
  const answer = await check(of, url, { 'payment-signature': x402(offer, tx) });
  expect(answer.json(), answer.body).toMatchObject({ outcome: 'paid' });
  return { answer: answer.json(), tx, token: answer.json().credential.token as string };
}

/** A /check answered as a 402 to pass on (not an error, not paid), naming the refusal when one is expected. */
function expectPaymentRequired(label: string, response: LightMyRequestResponse, refusal?: string) {
  expect({ label, status: response.statusCode, body: response.body }).toMatchObject({ label, status: 200 });
  expect({ label, outcome: response.json().outcome }).toEqual({ label, outcome: 'payment_required' });
  if (refusal) expect({ label, refusal: response.json().refusal?.code }).toEqual({ label, refusal });
}

const onChain = async (tx: Transaction) => (await stack.chainClient.getTransaction(tx.id('hex'))) !== null;
const payments = async (of: Merchant) =>
  (await as(of.paygateKey, 'GET', '/api/v1/402/payments?limit=100')).json().data as Array<Record<string, unknown>>;
const resources = async (of: Merchant) =>
  (await as(of.paygateKey, 'GET', '/api/v1/402/resources?limit=100')).json().data as Array<{ id: string; path: string }>;

const ODD = ['\u0000', '\u0007', '\u001b[31m', '\u202e', '\u0085', '%00', '%2e%2e%2f', 'x'.repeat(5000)];

describe('odd bytes in every field, path, query and header', () => {
  it('a priced resource: a control character, U+202E or 5,000 characters in its path or description is 422 naming the field; nothing is created', async () => {
    const before = (await resources(cafe)).length;
    for (const bad of ODD.filter((text) => text !== '%2e%2e%2f')) {
      for (const [field, payload] of [
        ['path', { ...RESOURCE, path: `/odd/${bad}` }],
        ['description', { ...RESOURCE, path: '/odd/*', description: `Ten ${bad} forecasts` }],
      ] as const) {
        if (field === 'description' && bad === '%00') continue; // "%00" is three printable characters in a description
        const response = await as(cafe.paygateKey, 'POST', '/api/v1/402/resources', payload);
        expectRefused(`${field} ${JSON.stringify(bad.slice(0, 10))}`, response, 'validation_failed');
        expect(JSON.stringify(response.json().error.details)).toContain(field);
      }
    }
    for (const path of ['/odd/%2e%2e/admin', '/odd/./x', '/odd/.%2E/*', '/odd\\..\\admin', '/odd/%0a'])
      expectRefused(path, await as(cafe.paygateKey, 'POST', '/api/v1/402/resources', { ...RESOURCE, path }), 'validation_failed');
    expect((await resources(cafe)).length).toBe(before);
  });

  it('an encoded "../" inside one segment is a literal path: it prices itself and nothing above it', async () => {
    const literal = await price(cafe, '/odd/%2e%2e%2fadmin');
    expect(literal.path).toBe('/odd/%2e%2e%2fadmin');
    expectPaymentRequired('itself', await check(cafe, '/odd/%2E%2E%2Fadmin'));
    expect((await check(cafe, '/admin')).json().outcome).toBe('free');
    expect((await as(cafe.paygateKey, 'DELETE', `/api/v1/402/resources/${literal.id}`)).statusCode).toBe(204);
  });

  it('/check: a bad url or method is 422; odd bytes in the URL or any payment header are a 402, never paid', async () => {
    await price(cafe, '/forecast/*', { price_satoshis: 3 });
    for (const url of [
      '/forecast/\u0000',
      '/forecast/\u0007',
      '/forecast/\u001b[31m',
      `/forecast/${'x'.repeat(5000)}`,
      '/forecast/..',
      '/forecast/%2e%2e',
      'https://h/forecast/.%2e/x',
    ])
      expectRefused(`url ${JSON.stringify(url.slice(0, 24))}`, await check(cafe, url), 'validation_failed');
    for (const method of ['GET\u0000', 'get', 'G'.repeat(5000), '\u202eGET'])
      expectRefused(
        `method ${JSON.stringify(method.slice(0, 10))}`,
        await as(cafe.paygateKey, 'POST', '/api/v1/402/check', { method, url: '/forecast/x' }),
        'validation_failed',
      );
    for (const url of ['/forecast/\u202etxt', '/forecast/%00', '/forecast/%2e%2e%2fsecret', '/forecast/x?q=%00&r=\u202e'])
      expectPaymentRequired(`url ${url}`, await check(cafe, url));
    const payment = ['x-bsv-beef', 'x-bsv-sender', 'x-bsv-nonce', 'x-bsv-time', 'x-bsv-vout', 'payment-signature', 'x-ctk-credential'];
    const brc121 = {
      'x-bsv-beef': 'AQC+7w==',
      'x-bsv-sender': `02${'ab'.repeat(32)}`,
      'x-bsv-nonce': 'bm9uY2U=',
      'x-bsv-time': String(Date.now()),
      'x-bsv-vout': '0',
    };
    for (const name of payment)
      for (const bad of ODD) {
        const label = `${name}: ${JSON.stringify(bad.slice(0, 10))}`;
        const answer = await check(cafe, '/forecast/today', { ...brc121, [name]: bad }, { payee_key: `03${'cd'.repeat(32)}` });
        // A NUL, which PostgreSQL cannot store, is refused by the gateway in any field; the rest reach the gate.
        if (bad === '\u0000') expectRefused(label, answer, 'validation_failed');
        else expectPaymentRequired(label, answer);
      }
    expect(await payments(cafe)).toEqual([]);
  });

  it('/check prices every spelling of a priced path a router serves (escapes, case, slashes, HEAD), and refuses a dot segment', async () => {
    await price(cafe, '/spelled/*');
    await price(cafe, '/exact', { price_satoshis: 8 });
    for (const url of [
      '/%73pelled/x',
      '/SPELLED/x',
      '/Spelled',
      'https://api.example//spelled//x',
      '/spelled/x/',
      '/%45xact',
      '/EXACT/',
      'https://api.example/exact//',
    ])
      expectPaymentRequired(url, await check(cafe, url));
    expectPaymentRequired('HEAD', await as(cafe.paygateKey, 'POST', '/api/v1/402/check', { method: 'HEAD', url: '/spelled/x' }));
    for (const url of ['/spelled/..', '/spelled/%2E%2e', '/spelled/./x', '/spelled\\..\\x'])
      expectRefused(url, await check(cafe, url), 'validation_failed');
    // One price for one path, however it is spelled.
    expectError(await as(cafe.paygateKey, 'POST', '/api/v1/402/resources', { ...RESOURCE, path: '/%45XACT/' }), 409, 'already_exists');
  });

  it('/verify: odd bytes in the nonce, sender, time, transaction or vout are 422 naming the field', async () => {
    const good = { transaction: 'AQC+7w==', vout: 0, nonce: 'q7Lh0V3pX9cJ2mR8tY4wKA' };
    for (const bad of ODD)
      for (const [field, payload] of [
        ['nonce', { ...good, nonce: bad }],
        ['sender', { transaction: good.transaction, vout: 0, sender: bad, time: String(Date.now()) }],
        ['time', { transaction: good.transaction, vout: 0, sender: `02${'ab'.repeat(32)}`, time: bad }],
        ['transaction', { ...good, transaction: bad }],
      ] as const) {
        const response = await verify(cafe, payload);
        expectRefused(`${field} ${JSON.stringify(bad.slice(0, 10))}`, response, 'validation_failed');
      }
    for (const vout of [-1, 100_001, 2 ** 53, 0.5, '0', null])
      expectRefused(`vout ${vout}`, await verify(cafe, { ...good, vout }), 'validation_failed');
  });

  it('resource ids, cursors and limits in the path and query: a 4xx, never a 500', async () => {
    for (const bad of ['%00', '%07', '%1B', '%E2%80%AE', '%2e%2e%2f', '..%2F..%2Fpayments', 'x'.repeat(5000), '%FF']) {
      expectRefused(`id ${bad.slice(0, 12)}`, await as(cafe.paygateKey, 'DELETE', `/api/v1/402/resources/${bad}`));
      for (const list of ['resources', 'payments']) {
        expectRefused(`${list} cursor ${bad.slice(0, 12)}`, await as(cafe.paygateKey, 'GET', `/api/v1/402/${list}?cursor=${bad}`));
        expectRefused(`${list} limit ${bad.slice(0, 12)}`, await as(cafe.paygateKey, 'GET', `/api/v1/402/${list}?limit=${bad}`));
      }
    }
  });
});

describe('the paygate key spelled another way', () => {
  it('is the same key where HTTP says so (the scheme in any case, spaces after it), and refused otherwise', async () => {
    const commerce = await stack.gateway.app.inject({
      method: 'POST',
      url: `/api/v1/orgs/${cafe.handle}/commerce-key`,
      headers: bearer(cafe.key),
    });
    const list = (authorization: string) =>
      stack.gateway.app.inject({ method: 'GET', url: '/api/v1/402/resources', headers: { authorization } });
    const mine = (await list(`Bearer ${cafe.paygateKey}`)).json();
    for (const authorization of [`bearer ${cafe.paygateKey}`, `BEARER ${cafe.paygateKey}`, `Bearer   ${cafe.paygateKey}  `]) {
      const answer = await list(authorization);
      expect({ authorization, status: answer.statusCode }).toEqual({ authorization, status: 200 });
      expect(answer.json()).toEqual(mine);
    }
    const secret = cafe.paygateKey.slice('ctk_pg_'.length);
    for (const authorization of [
      `Bearer CTK_PG_${secret}`,
      `Bearer Ctk_pg_${secret}`,
      `Bearer ctk_pg_${secret.toUpperCase()}`,
      `Bearer Bearer ${cafe.paygateKey}`,
      `Bearer ${cafe.paygateKey} ${cafe.paygateKey}`,
      `Bearer ${cafe.paygateKey},Bearer ${cafe.paygateKey}`,
      `Bearer ${cafe.paygateKey}x`,
      `Bearer ${cafe.paygateKey.slice(0, -1)}`,
      `Bearer ${cafe.paygateKey}\u0000`,
      `Bearer ${cafe.paygateKey}\u202e`,
      cafe.paygateKey,
      `Basic ${Buffer.from(`${cafe.paygateKey}:`).toString('base64')}`,
      `Bearer ${cafe.key}`,
      `Bearer ${commerce.json().commerce_public_key}`,
      `Bearer ${other.paygateKey.slice(0, 20)}${secret.slice(13)}`,
      `Bearer ${'x'.repeat(5000)}`,
    ]) {
      const answer = await list(authorization);
      expectRefused(authorization.slice(0, 40), answer);
      expect([401]).toContain(answer.statusCode);
    }
  });
});

describe("another account's ids, payments and credentials", () => {
  it("another account's resource cannot be removed (404), and its credentials keep working", async () => {
    const theirs = await price(other, '/their/*', { grant: { kind: 'window', seconds: 3600 } });
    const { token } = await pay(other, '/their/one');
    expectError(await as(cafe.paygateKey, 'DELETE', `/api/v1/402/resources/${theirs.id}`), 404, 'not_found');
    expect((await resources(other)).map((row) => row.id)).toContain(theirs.id);
    expect((await check(other, '/their/two', { 'x-ctk-credential': token })).json().outcome).toBe('paid');
    // Nor is it priced or paid in this account: the same path is free here, their credential buys nothing.
    expect((await check(cafe, '/their/two', { 'x-ctk-credential': token })).json().outcome).toBe('free');
    await price(cafe, '/their/*');
    expectPaymentRequired('their credential here', await check(cafe, '/their/two', { 'x-ctk-credential': token }), 'payment_required');
    expect(await payments(cafe)).toEqual([]);
  });

  it("another account's cursor pages this account's rows only", async () => {
    for (let i = 0; i < 3; i++) await price(other, `/paged-${i}`);
    const page = await as(other.paygateKey, 'GET', '/api/v1/402/resources?limit=1');
    const cursor = page.json().next_cursor as string;
    expect(cursor).toEqual(expect.any(String));
    const mine = new Set((await resources(cafe)).map((row) => row.id));
    const theirs = await as(cafe.paygateKey, 'GET', `/api/v1/402/resources?cursor=${encodeURIComponent(cursor)}`);
    expect(theirs.statusCode).toBe(200);
    for (const row of theirs.json().data as Array<{ id: string }>) expect(mine.has(row.id)).toBe(true);
  });

  it("a payment to another account's request, by its nonce or its script, is refused here and stays payable there", async () => {
    await price(other, '/shared/*', { price_satoshis: 4 });
    await price(cafe, '/shared/*', { price_satoshis: 4 });
    const theirs = await offerFor(other, '/shared/a');
    // This account's script, their nonce.
    const mine = await offerFor(cafe, '/shared/a');
    const toMe = await paying(coin(), mine.extra.lockingScript, 4);
    expectError(await verify(cafe, { transaction: base64(toMe), vout: 0, nonce: theirs.extra.nonce }), 422, 'payment_expired');
    expectPaymentRequired(
      'their nonce, my script',
      await check(cafe, '/shared/a', {
        'payment-signature': x402({ ...mine, extra: { ...mine.extra, nonce: theirs.extra.nonce } }, toMe, 0),
      }),
      'payment_expired',
    );
    expect(await onChain(toMe)).toBe(false);
    const tx = await paying(coin(), theirs.extra.lockingScript, 4);
    expectError(await verify(cafe, { transaction: base64(tx), vout: 0, nonce: theirs.extra.nonce }), 422, 'payment_expired');
    expectPaymentRequired('their nonce', await check(cafe, '/shared/a', { 'payment-signature': x402(theirs, tx, 0) }), 'payment_expired');
    const sender = PrivateKey.fromRandom().toPublicKey().toString();
    expectError(await verify(cafe, { transaction: base64(tx), vout: 0, sender, time: String(Date.now()) }), 422, 'payment_wrong_output');
    expect(await onChain(tx)).toBe(false);
    const paid = await verify(other, { transaction: base64(tx), vout: 0, nonce: theirs.extra.nonce });
    expect(paid.statusCode, paid.body).toBe(200);
    // Paid there, the transaction is spent for every account.
    expectError(
      await verify(cafe, { transaction: base64(tx), vout: 0, nonce: (await offerFor(cafe, '/shared/b')).extra.nonce }),
      409,
      'txid_already_used',
    );
    expect((await payments(cafe)).map((row) => row.txid)).not.toContain(tx.id('hex'));
  });
});

/** A compact JWS's parts, to forge from. */
function parts(token: string) {
  const [header, payload, signature] = token.split('.') as [string, string, string];
  return { header, payload, signature, claims: JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown> };
}
const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

describe('credentials at /check', () => {
  it('forged (alg none, another kid, a modified payload, HS256 keyed with the public key) or for another resource: refused', async () => {
    await price(cafe, '/maps/*', { price_satoshis: 2 });
    await price(cafe, '/radar/*', { price_satoshis: 200 });
    const { token } = await pay(cafe, '/maps/paris');
    const { header, payload, signature, claims } = parts(token);
    const published = (await stack.gateway.app.inject({ method: 'GET', url: '/.well-known/ctk-paygate.json' })).json().keys[0] as {
      kid: string;
      x: string;
    };
    const attacker = generateKeyPairSync('ed25519');
    const signed = (head: Record<string, unknown>, body: Record<string, unknown>) => {
      const input = `${b64(head)}.${b64(body)}`;
      return `${input}.${sign(null, Buffer.from(input), attacker.privateKey).toString('base64url')}`;
    };
    const hs = b64({ alg: 'HS256', kid: published.kid, typ: 'ctk402' });
    const radar = { ...claims, pth: '/radar/*' };
    for (const [label, forged] of [
      ['alg none', `${b64({ alg: 'none', kid: published.kid, typ: 'ctk402' })}.${b64(radar)}.`],
      ['another kid, the attacker’s key', signed({ alg: 'EdDSA', kid: 'attacker', typ: 'ctk402' }, radar)],
      ['the gate’s kid, the attacker’s key', signed({ alg: 'EdDSA', kid: published.kid, typ: 'ctk402' }, radar)],
      ['another path, the old signature', `${header}.${b64(radar)}.${signature}`],
      ['more calls, the old signature', `${header}.${b64({ ...claims, calls: 1_000_000 })}.${signature}`],
      [
        'HS256 keyed with the published x',
        `${hs}.${payload}.${createHmac('sha256', published.x).update(`${hs}.${payload}`).digest('base64url')}`,
      ],
      [
        'HS256 keyed with the raw public key',
        `${hs}.${payload}.${createHmac('sha256', Buffer.from(published.x, 'base64url')).update(`${hs}.${payload}`).digest('base64url')}`,
      ],
      ['a real credential of another resource', token],
    ] as const)
      expectPaymentRequired(label, await check(cafe, '/radar/today', { 'x-ctk-credential': forged }), 'payment_required');
    // Forged for the path it was bought for, the same forgeries are refused as well.
    for (const forged of [
      `${header}.${b64({ ...claims, calls: 1_000_000 })}.${signature}`,
      signed({ alg: 'EdDSA', kid: published.kid, typ: 'ctk402' }, claims),
    ])
      expectPaymentRequired('forged for its own path', await check(cafe, '/maps/rome', { 'x-ctk-credential': forged }), 'payment_required');
  });

  it('expired: refused once its window is over', async () => {
    await price(cafe, '/flash/*', { grant: { kind: 'window', seconds: 1 } });
    const { token } = await pay(cafe, '/flash/now');
    const expires = (parts(token).claims.exp as number) * 1000;
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, expires - Date.now()) + 100));
    const answer = await check(cafe, '/flash/later', { 'x-ctk-credential': token });
    expectPaymentRequired('expired', answer, 'payment_required');
    expect(answer.json().refusal.message).toMatch(/expired/);
  });

  it(
    'a calls credential used 100 times at once through /check: exactly `calls` uses in all, the paid request being the first',
    { tags: ['concurrency'] },
    async () => {
      // A path and a coin of its own each run: the test is repeated (decision 0030) and a path has one price.
      const burst = `/burst-${randomBytes(4).toString('hex')}`;
      await price(cafe, `${burst}/*`, { grant: { kind: 'calls', calls: 10 } });
      const { token, answer } = await pay(cafe, `${burst}/0`, (await minedCoins(stack, 1))[0]);
      const answers = await Promise.all(
        Array.from({ length: 100 }, (_, i) => check(cafe, `${burst}/${i + 1}`, { 'x-ctk-credential': token })),
      );
      for (const response of answers) expect(response.statusCode, response.body).toBe(200);
      expect(answers.filter((response) => response.json().outcome === 'paid')).toHaveLength(9);
      const row = (await payments(cafe)).find((payment) => payment.id === answer.payment.id);
      expect(row).toMatchObject({ calls: 10, calls_used: 10 });
    },
  );
});

describe('payments that do not pay what they claim', () => {
  it(
    'the same BEEF at 50 concurrent /verify calls: exactly one accepted, one payment, one broadcast',
    { tags: ['concurrency'] },
    async () => {
      const rush = `/rush-${randomBytes(4).toString('hex')}`;
      await price(cafe, `${rush}/*`, { price_satoshis: 7 });
      const offer = await offerFor(cafe, `${rush}/a`);
      const tx = await paying((await minedCoins(stack, 1))[0]!, offer.extra.lockingScript, 7);
      const body = { transaction: base64(tx), vout: 0, nonce: offer.extra.nonce };
      const answers = await Promise.all(Array.from({ length: 50 }, () => verify(cafe, body)));
      expect(answers.filter((answer) => answer.statusCode === 200)).toHaveLength(1);
      // Each copy is told what happened to it: this transaction already paid (not "another transaction", not a 500).
      for (const answer of answers.filter((response) => response.statusCode !== 200)) expectError(answer, 409, 'txid_already_used');
      expect((await payments(cafe)).filter((payment) => payment.txid === tx.id('hex'))).toHaveLength(1);
      expect(await onChain(tx)).toBe(true);
    },
  );

  it('a BEEF whose subject is not the paying transaction pays nothing, and nothing is broadcast', async () => {
    await price(cafe, '/subject/*', { price_satoshis: 6 });
    const offer = await offerFor(cafe, '/subject/a');
    const spent = coin();
    const payment = await paying(spent, offer.extra.lockingScript, 6);
    // A child spending the payment's change: the BEEF's last transaction, its subject.
    const child = new Transaction();
    child.addInput({ sourceTransaction: payment, sourceOutputIndex: 1, unlockingScriptTemplate: new P2PKH().unlock(spent.key) });
    child.addOutput({ lockingScript: new P2PKH().lock(spent.key.toAddress('testnet')), satoshis: payment.outputs[1]!.satoshis! - 200 });
    await child.sign();
    for (const vout of [0, 1]) {
      expectError(await verify(cafe, { transaction: base64(child), vout, nonce: offer.extra.nonce }), 422, 'payment_wrong_output');
      expectPaymentRequired(
        `x402 vout ${vout}`,
        await check(cafe, '/subject/a', { 'payment-signature': x402(offer, child, vout) }),
        'payment_wrong_output',
      );
    }
    expect(await onChain(payment)).toBe(false);
    expect(await onChain(child)).toBe(false);
  });

  it("a parent's merkle path from another block, or of another block's transaction, is payment_invalid and nothing is broadcast", async () => {
    await price(cafe, '/proof/*', { price_satoshis: 6 });
    const offer = await offerFor(cafe, '/proof/a');
    const spent = coin();
    const real = spent.source.merklePath!;
    // A transaction of a later block, and that block's merkle path for it.
    const [later] = await minedCoins(stack, 1);
    for (const [label, path] of [
      ['the path of a later block', new MerklePath(later!.source.merklePath!.blockHeight, real.path)],
      ['the path of a transaction in a later block', later!.source.merklePath!],
      ['a made-up block of one', MerklePath.fromCoinbaseTxidAndHeight(spent.source.id('hex'), real.blockHeight)],
    ] as const) {
      const source = Transaction.fromHex(spent.source.toHex());
      source.merklePath = path;
      const tx = await paying({ ...spent, source }, offer.extra.lockingScript, 6);
      const beef = base64(tx);
      expectRefused(label, await verify(cafe, { transaction: beef, vout: 0, nonce: offer.extra.nonce }), 'payment_invalid');
      expectPaymentRequired(label, await check(cafe, '/proof/a', { 'payment-signature': x402(offer, beef, 0) }), 'payment_invalid');
      expect(await onChain(tx)).toBe(false);
    }
  });

  it("a payment of resource A's request presented on resource B's URL is refused, and A's request stays payable", async () => {
    await price(cafe, '/cheap/*', { price_satoshis: 1 });
    await price(cafe, '/dear/*', { price_satoshis: 1000 });
    const cheap = await offerFor(cafe, '/cheap/a');
    const tx = await paying(coin(), cheap.extra.lockingScript, 1);
    expectPaymentRequired('on B', await check(cafe, '/dear/a', { 'payment-signature': x402(cheap, tx) }), 'payment_wrong_output');
    const sender = PrivateKey.fromRandom().toPublicKey().toString();
    const brc121 = {
      'x-bsv-beef': base64(tx),
      'x-bsv-vout': '0',
      'x-bsv-sender': sender,
      'x-bsv-nonce': 'bm9uY2U=',
      'x-bsv-time': String(Date.now()),
    };
    expectPaymentRequired('on B, BRC-121', await check(cafe, '/dear/a', brc121), 'payment_wrong_output');
    expect(await onChain(tx)).toBe(false);
    expect((await check(cafe, '/cheap/a', { 'payment-signature': x402(cheap, tx) })).json().outcome).toBe('paid');
  });

  it('a transaction mined before it was offered (someone else’s payment to a reused address) pays nothing', async () => {
    await price(cafe, '/old/*', { price_satoshis: 3 });
    const offer = await offerFor(cafe, '/old/a');
    const tx = await paying(coin(), offer.extra.lockingScript, 3);
    await stack.chainClient.broadcast(tx);
    const { height } = await mineBlocks(stack.chain.url);
    tx.merklePath = (await stack.chainClient.getStatus(tx.id('hex'))).merklePath;
    expect(tx.merklePath?.blockHeight).toBe(height);
    // The proof left out, the subject looks unmined; the chain still knows it.
    const unproven = Transaction.fromHex(tx.toHex());
    unproven.inputs[0]!.sourceTransaction = tx.inputs[0]!.sourceTransaction;
    for (const [label, beef] of [
      ['with its merkle path', base64(tx)],
      ['its merkle path left out', base64(unproven)],
    ] as const) {
      const answer = await verify(cafe, { transaction: beef, vout: 0, nonce: offer.extra.nonce });
      expectRefused(label, answer, 'payment_invalid');
      expect(answer.json().error.message).toMatch(/already mined/);
    }
    expect((await payments(cafe)).map((payment) => payment.txid)).not.toContain(tx.id('hex'));
  });

  it('a nonce never issued, a BRC-121 time beyond 30 s, an output out of range: refused, nothing broadcast', async () => {
    await price(cafe, '/misc/*', { price_satoshis: 3 });
    const offer = await offerFor(cafe, '/misc/a');
    const tx = await paying(coin(), offer.extra.lockingScript, 3);
    const beef = base64(tx);
    const invented = { ...offer, extra: { ...offer.extra, nonce: 'AAAAAAAAAAAAAAAAAAAAAA' } };
    expectPaymentRequired('never issued', await check(cafe, '/misc/a', { 'payment-signature': x402(invented, tx) }), 'payment_expired');
    expectError(await verify(cafe, { transaction: beef, vout: 0, nonce: invented.extra.nonce }), 422, 'payment_expired');
    const sender = PrivateKey.fromRandom().toPublicKey().toString();
    for (const skew of [31_000, 3_600_000, -31_000]) {
      const time = String(Date.now() + skew);
      expectError(await verify(cafe, { transaction: beef, vout: 0, sender, time }), 422, 'payment_expired');
      const headers = { 'x-bsv-beef': beef, 'x-bsv-vout': '0', 'x-bsv-sender': sender, 'x-bsv-nonce': 'bm9uY2U=', 'x-bsv-time': time };
      expectPaymentRequired(`time ${skew}`, await check(cafe, '/misc/a', headers), 'payment_expired');
    }
    for (const vout of [2, 99_999]) {
      expectError(await verify(cafe, { transaction: beef, vout, nonce: offer.extra.nonce }), 422, 'payment_wrong_output');
      expectPaymentRequired(
        `vout ${vout}`,
        await check(cafe, '/misc/a', { 'payment-signature': x402(offer, tx, vout) }),
        'payment_wrong_output',
      );
    }
    for (const vout of [-1, 1.5, 100_000, 2 ** 53])
      expectPaymentRequired(
        `x402 vout ${vout}`,
        await check(cafe, '/misc/a', { 'payment-signature': x402(offer, tx, vout) }),
        'validation_failed',
      );
    for (const vout of ['-1', '99999999', '0x1', '1e3', ' 0'])
      expectPaymentRequired(
        `x-bsv-vout ${vout}`,
        await check(cafe, '/misc/a', {
          'x-bsv-beef': beef,
          'x-bsv-vout': vout,
          'x-bsv-sender': sender,
          'x-bsv-nonce': 'bm9uY2U=',
          'x-bsv-time': String(Date.now()),
        }),
        'validation_failed',
      );
    expect(await onChain(tx)).toBe(false);
    // Every refusal above left the request open.
    expect((await check(cafe, '/misc/a', { 'payment-signature': x402(offer, tx) })).json().outcome).toBe('paid');
  });

  it('a 4 MB BEEF of junk, or a few bytes claiming billions of transactions, is refused at once', async () => {
    await price(cafe, '/junk/*');
    const offer = await offerFor(cafe, '/junk/a');
    const sender = PrivateKey.fromRandom().toPublicKey().toString();
    const started = Date.now();
    for (const junk of [
      Buffer.alloc(2_900_000, 0xff),
      Buffer.from('0100beef00feffffffff', 'hex'),
      Buffer.from('0100beef0101fffeffffff7f', 'hex'),
    ]) {
      const transaction = junk.toString('base64');
      const label = `${junk.length} bytes`;
      expectRefused(label, await verify(cafe, { transaction, vout: 0, nonce: offer.extra.nonce }), 'validation_failed');
      const brc121 = {
        'x-bsv-beef': transaction,
        'x-bsv-vout': '0',
        'x-bsv-sender': sender,
        'x-bsv-nonce': 'bm9uY2U=',
        'x-bsv-time': String(Date.now()),
      };
      expectPaymentRequired(label, await check(cafe, '/junk/a', brc121), 'validation_failed');
      if (junk.length < 100)
        expectPaymentRequired(
          label,
          await check(cafe, '/junk/a', { 'payment-signature': x402(offer, transaction, 0) }),
          'validation_failed',
        );
    }
    expect(Date.now() - started).toBeLessThan(10_000);
    // A full 4 MB is more than the route takes (base64 makes it 5.3 MB): 413 before p2p is asked.
    const whole = Buffer.alloc(4_000_000, 0xff).toString('base64');
    expectRefused('4 MB', await verify(cafe, { transaction: whole, vout: 0, nonce: offer.extra.nonce }), 'payload_too_large');
  });

  it('BRC-121 to a payee key with a remittance that is not short base64 is refused before it is broadcast', async () => {
    await price(cafe, '/remit/*', { price_satoshis: 2 });
    const payee = PrivateKey.fromRandom().toPublicKey();
    const sender = PrivateKey.fromRandom().toPublicKey().toString();
    for (const nonce of ['bm9uY2U=\u0007', 'n'.repeat(5000), 'bm9u Y2U=', '\u202ebm9uY2U=', '%00', '../../x']) {
      const tx = await paying(coin(), new P2PKH().lock(payee.toHash() as number[]).toHex(), 2);
      const headers = {
        'x-bsv-beef': base64(tx),
        'x-bsv-vout': '0',
        'x-bsv-sender': sender,
        'x-bsv-nonce': nonce,
        'x-bsv-time': String(Date.now()),
      };
      const answer = await check(cafe, '/remit/a', headers, { payee_key: payee.toString() });
      expectPaymentRequired(JSON.stringify(nonce.slice(0, 10)), answer, 'validation_failed');
      expect(await onChain(tx)).toBe(false);
    }
    expect((await payments(cafe)).filter((payment) => payment.path === '/remit/*')).toEqual([]);
  });
});

describe('BRC-121 to the merchant’s BRC-42 key (payee_key)', () => {
  it('a second transaction with the same sender, nonce and time is refused before it is broadcast', async () => {
    await price(cafe, '/brc42/*', { price_satoshis: 2 });
    const payee = PrivateKey.fromRandom().toPublicKey();
    const script = new P2PKH().lock(payee.toHash() as number[]).toHex();
    const remittance = {
      'x-bsv-vout': '0',
      'x-bsv-sender': PrivateKey.fromRandom().toPublicKey().toString(),
      'x-bsv-nonce': 'bm9uY2U=',
      'x-bsv-time': String(Date.now()),
    };
    const first = await paying(coin(), script, 2);
    const paid = await check(cafe, '/brc42/a', { ...remittance, 'x-bsv-beef': base64(first) }, { payee_key: payee.toString() });
    expect(paid.json(), paid.body).toMatchObject({ outcome: 'paid' });
    const second = await paying(coin(), script, 2);
    const again = await check(cafe, '/brc42/a', { ...remittance, 'x-bsv-beef': base64(second) }, { payee_key: payee.toString() });
    expectPaymentRequired('the same remittance', again, 'payment_expired');
    expect(await onChain(second)).toBe(false);
  });
});

describe('the published document', () => {
  it('reveals the issuer, the public key, revoked ids and its age, and nothing else', async () => {
    const theirs = await price(other, '/gone/*', { grant: { kind: 'window', seconds: 3600 } });
    await pay(other, '/gone/x');
    expect((await as(other.paygateKey, 'DELETE', `/api/v1/402/resources/${theirs.id}`)).statusCode).toBe(204);
    const answer = await stack.gateway.app.inject({ method: 'GET', url: '/.well-known/ctk-paygate.json' });
    const document = answer.json();
    expect(Object.keys(document).sort()).toEqual(['issuer', 'keys', 'max_age_seconds', 'revoked']);
    for (const key of document.keys) expect(Object.keys(key).sort()).toEqual(['alg', 'crv', 'kid', 'x']);
    expect(document.revoked.resources).toContain(theirs.id);
    const text = answer.body;
    for (const secret of [other.orgId, cafe.orgId, other.keys.xpub, other.paygateKey, other.handle]) expect(text).not.toContain(secret);
    for (const id of [...document.revoked.resources, ...document.revoked.credentials]) expect(id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("a removed resource's credential buys nothing once the path is priced again", async () => {
    const first = await price(cafe, '/again/*', { grant: { kind: 'window', seconds: 3600 } });
    const { token } = await pay(cafe, '/again/a');
    expect((await as(cafe.paygateKey, 'DELETE', `/api/v1/402/resources/${first.id}`)).statusCode).toBe(204);
    expect((await check(cafe, '/again/b', { 'x-ctk-credential': token })).json().outcome).toBe('free');
    await price(cafe, '/again/*', { grant: { kind: 'window', seconds: 3600 } });
    expectPaymentRequired('priced again', await check(cafe, '/again/b', { 'x-ctk-credential': token }), 'payment_required');
  });
});
