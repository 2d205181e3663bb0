import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { paygateExpress } from '../src/server/index.js';
import { startFakeGate, type FakeGate } from '../src/testing/index.js';
import { paymentResponse, x402Payment } from './support.js';

let gate: FakeGate;
let server: Server;
let base: string;

beforeEach(async () => {
  gate = await startFakeGate({
    resources: [
      { method: 'GET', path: '/weather/*', price_satoshis: 5, grant: { kind: 'window', seconds: 3600 } },
      { method: 'GET', path: '/api/maps/*', price_satoshis: 8, grant: { kind: 'window', seconds: 3600 } },
    ],
  });
  const options = { gateUrl: gate.url, key: gate.key, account: gate.account, onError: () => undefined };
  const app = express();
  const weather = paygateExpress(options);
  app.get('/weather/:day', weather, (request, response) => {
    response.json({ day: request.params.day, forecast: 'sunny' });
  });
  // Under a mounted router `req.url` is `/paris`: the gate must be told the path the client asked for.
  const maps = express.Router();
  maps.get('/:city', paygateExpress(options), (request, response) => void response.json({ city: request.params.city }));
  app.use('/api/maps', maps);
  server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // Both middlewares share one core (one count of uses); wait for its published document, as a server would at start.
  await weather.paygate.ready();
});
afterEach(async () => {
  await new Promise((resolve) => server.close(resolve));
  await gate.close().catch(() => undefined);
});

describe('the Express middleware', () => {
  it("answers a bare request 402 with the gate's headers and body", async () => {
    const response = await fetch(`${base}/weather/today`);
    expect(response.status).toBe(402);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(response.headers.get('x-bsv-sats')).toBe('5');
    const body = (await response.json()) as { accepts: unknown[] };
    expect(JSON.parse(Buffer.from(response.headers.get('payment-required')!, 'base64').toString())).toEqual(body);
    expect(body.accepts[0]).toMatchObject({ amount: '5', network: 'bsv:local' });
  });

  it('tells the gate the URL the client asked for under a mounted router', async () => {
    const response = await fetch(`${base}/api/maps/paris?zoom=3`);
    expect(response.status).toBe(402);
    expect(response.headers.get('x-bsv-sats')).toBe('8');
    expect(gate.checks.at(-1)!.url).toBe(`${base}/api/maps/paris?zoom=3`);
  });

  it('lets a paid request through with payment-response, then passes its credential without the gate', async () => {
    const payment = await x402Payment(await fetch(`${base}/weather/today`));
    const paid = await fetch(`${base}/weather/today`, { headers: { 'payment-signature': payment.header } });
    expect(paid.status).toBe(200);
    expect(await paid.json()).toEqual({ day: 'today', forecast: 'sunny' });
    expect(paymentResponse(paid)).toMatchObject({ success: true, transaction: payment.txid });
    const credential = paid.headers.get('x-ctk-credential')!;
    const checks = gate.requests.check;
    for (let i = 0; i < 5; i++)
      expect((await fetch(`${base}/weather/day-${i}`, { headers: { 'x-ctk-credential': credential } })).status).toBe(200);
    expect(gate.requests.check).toBe(checks);
  });

  it('answers 503 with a JSON error when the gate cannot be reached', async () => {
    await gate.close();
    const response = await fetch(`${base}/weather/today`);
    expect(response.status).toBe(503);
    expect(await response.json()).toEqual({ error: { code: 'unavailable', message: expect.stringContaining('cannot be reached') } });
  });
});
