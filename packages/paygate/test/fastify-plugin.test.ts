import Fastify from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { paygate } from '../src/server/index.js';
import { startFakeGate, type FakeGate } from '../src/testing/index.js';
import { fastifyApp, paymentResponse, x402Payment } from './support.js';

let gate: FakeGate;
let app: Awaited<ReturnType<typeof fastifyApp>>;

beforeEach(async () => {
  gate = await startFakeGate({
    resources: [
      { method: 'GET', path: '/weather/*', price_satoshis: 5, grant: { kind: 'calls', calls: 3 } },
      { method: 'POST', path: '/weather/report', price_satoshis: 9, grant: { kind: 'window', seconds: 60 } },
    ],
  });
  app = await fastifyApp(gate);
});
afterEach(async () => {
  await app.app.close();
  await gate.close().catch(() => undefined);
});

describe('the fastify plugin', () => {
  it("answers a bare request to a priced route 402 with the gate's headers and body", async () => {
    const response = await fetch(`${app.base}/weather/today`, { headers: { cookie: 'session=abc' } });
    expect(response.status).toBe(402);
    expect(response.headers.get('x-bsv-sats')).toBe('5');
    expect(response.headers.get('x-bsv-server')).toMatch(/^0[23][0-9a-f]{64}$/);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const body = await response.json();
    expect(JSON.parse(Buffer.from(response.headers.get('payment-required')!, 'base64').toString())).toEqual(body);
    expect(body).toMatchObject({
      x402Version: 2,
      resource: { url: `${app.base}/weather/today` },
      accepts: [{ scheme: 'exact', network: 'bsv:local', amount: '5', extra: { serverKey: response.headers.get('x-bsv-server') } }],
    });
    expect(gate.checks).toEqual([{ method: 'GET', url: `${app.base}/weather/today`, headers: {} }]);
  });

  it('lets a paid request through with payment-response and a credential, which later passes without the gate', async () => {
    const payment = await x402Payment(await fetch(`${app.base}/weather/today`));
    const paid = await fetch(`${app.base}/weather/today`, { headers: { 'payment-signature': payment.header } });
    expect(paid.status).toBe(200);
    expect(await paid.json()).toEqual({ day: 'today', forecast: 'sunny' });
    expect(paymentResponse(paid)).toMatchObject({ success: true, transaction: payment.txid, network: 'bsv:local' });
    expect(paid.headers.get('cache-control')).toBe('no-store');
    const credential = paid.headers.get('x-ctk-credential')!;
    expect(gate.payments).toEqual([expect.objectContaining({ txid: payment.txid, satoshis: 5 })]);

    const checks = gate.requests.check;
    // A calls grant of 3: the paid request was use 1, two more pass here, the fourth is refused.
    for (const day of ['monday', 'tuesday']) {
      const again = await fetch(`${app.base}/weather/${day}`, { headers: { 'x-ctk-credential': credential } });
      expect(again.status).toBe(200);
      expect(again.headers.get('payment-response')).toBeNull();
    }
    expect(gate.requests.check).toBe(checks);
    const spent = await fetch(`${app.base}/weather/wednesday`, { headers: { 'x-ctk-credential': credential } });
    expect(spent.status).toBe(402);
    expect(((await spent.json()) as { error: string }).error).toContain('every call it paid for is used');
    expect(gate.requests.check).toBe(checks + 1);
  });

  it('answers 402 naming the refusal when the gate refuses a payment (the same transaction twice)', async () => {
    const payment = await x402Payment(await fetch(`${app.base}/weather/today`));
    expect((await fetch(`${app.base}/weather/today`, { headers: { 'payment-signature': payment.header } })).status).toBe(200);
    const replay = await fetch(`${app.base}/weather/today`, { headers: { 'payment-signature': payment.header } });
    expect(replay.status).toBe(402);
    expect(((await replay.json()) as { error: string }).error).toBe('No open payment request matches this payment.');
  });

  it('passes what the gate calls free, and never asks about routes without the option', async () => {
    const free = await fetch(`${app.base}/news`);
    expect(free.status).toBe(200);
    expect(await free.json()).toEqual({ news: 'none' });
    expect(gate.requests.check).toBe(1);
    expect((await fetch(`${app.base}/health`)).status).toBe(200);
    expect(gate.requests.check).toBe(1);
  });

  it('answers 503 when the gate cannot be reached, and still honours a credential it can check itself', async () => {
    const credential = gate.issue(gate.resources[0]!);
    await gate.close();
    const response = await fetch(`${app.base}/weather/today`);
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe('5');
    expect(await response.json()).toEqual({ error: { code: 'unavailable', message: expect.stringContaining('cannot be reached') } });
    expect((await fetch(`${app.base}/weather/today`, { headers: { 'x-ctk-credential': credential } })).status).toBe(200);
  });

  it('answers 503 when the gate refuses the paygate key', async () => {
    const errors: string[] = [];
    const wrongKey = await fastifyApp(gate, { key: 'ctk_pg_not-the-key', onError: (error) => errors.push(error.message) });
    try {
      expect((await fetch(`${wrongKey.base}/weather/today`)).status).toBe(503);
      expect(errors).toContain('The payment gate answered 401 to the check: The payment-gate key is not valid.');
    } finally {
      await wrongKey.app.close();
    }
  });

  it('refuses a payment header over its bound with 413, without asking the gate', async () => {
    const small = await fastifyApp(gate, { maxTransactionHeaderBytes: 1000 });
    try {
      const response = await fetch(`${small.base}/weather/today`, { headers: { 'x-bsv-beef': 'A'.repeat(1001) } });
      expect(response.status).toBe(413);
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe('payload_too_large');
      expect(gate.requests.check).toBe(0);
    } finally {
      await small.app.close();
    }
  });

  it('guards a route declared in an encapsulated plugin, and through paygate().fastify', async () => {
    const gated = paygate({ gateUrl: gate.url, key: gate.key, account: gate.account });
    const other = Fastify();
    await other.register(gated.fastify);
    await other.register(async (child) => {
      child.get('/weather/inner', { paygate: true }, async () => ({ inner: true }));
    });
    try {
      const response = await other.inject({ method: 'GET', url: '/weather/inner' });
      expect(response.statusCode).toBe(402);
      expect(response.headers['x-bsv-sats']).toBe('5');
    } finally {
      await other.close();
      gated.close();
    }
  });
});
