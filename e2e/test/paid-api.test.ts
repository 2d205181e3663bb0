import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HD } from '@bsv/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, freePort, ROOT, startInstance, stopInstance, wallet, type Instance } from './instance.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;

/**
 * examples/paid-api/README.md, step by step, against a running instance: an organisation with a wallet xpub,
 * a payment-gate key, a priced resource, the example server behind @ctk/paygate's plugin, and the developer
 * wallet paying it with `fetch`; then the credential it bought passes without a payment.
 */
describe('a paid API behind the payment gate, as examples/paid-api runs it', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ctk-e2e-paid-api-'));
  const customer = join(dir, 'customer.json');
  let instance: Instance;
  let server: ChildProcess | undefined;
  let chainPort = 0;
  let paygateKey = '';
  let api402 = '';

  beforeAll(async () => {
    chainPort = await freePort();
    instance = await startInstance({ port: await freePort(), dataDir: join(dir, 'instance'), chainPort });
    const xpub = HD.fromRandom().derive("m/44'/236'/0'").toPublic().toString();
    const onboarded = await api(instance.base, 'POST', '/api/v1/onboard', undefined, { name: 'Blue Bottle Cafe', wallet_xpub: xpub });
    expect(onboarded.status).toBe(201);
    const created = await api(instance.base, 'POST', '/api/v1/orgs/blue-bottle-cafe/paygate-keys', onboarded.body.api_key.key, {
      name: 'Weather API',
    });
    expect(created.status).toBe(201);
    paygateKey = created.body.key;
    const priced = await api(instance.base, 'POST', '/api/v1/402/resources', paygateKey, {
      method: 'GET',
      path: '/weather/*',
      price_satoshis: 1,
      grant: { kind: 'calls', calls: 10 },
      description: 'Weather by city',
    });
    expect(priced.status).toBe(201);

    const port = await freePort();
    server = spawn(process.execPath, [join(ROOT, 'examples/paid-api/src/server.mjs')], {
      env: {
        PATH: process.env.PATH,
        CTK_GATEWAY: instance.base,
        PAYGATE_KEY: paygateKey,
        PAYGATE_ACCOUNT: created.body.account_id,
        PAID_API_PORT: String(port),
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    await new Promise<void>((ready, fail) => {
      server!.stdout!.on('data', (chunk: Buffer) => chunk.toString().includes('Paid API on') && ready());
      server!.once('exit', (code) => fail(new Error(`the paid API exited with ${code}`)));
    });
    api402 = `http://127.0.0.1:${port}`;
    await wallet(chainPort, customer, 'create');
    await wallet(chainPort, customer, 'faucet', '100000');
  });

  afterAll(async () => {
    server?.kill('SIGTERM');
    if (instance) await stopInstance(instance);
    rmSync(dir, { recursive: true, force: true });
  });

  it("answers a bare request 402 with the gate's x402 and BRC-121 offer, and the free route without it", async () => {
    expect((await fetch(`${api402}/health`)).status).toBe(200);
    const bare = await fetch(`${api402}/weather/lisbon`);
    expect(bare.status).toBe(402);
    expect(bare.headers.get('x-bsv-sats')).toBe('1');
    const body = (await bare.json()) as Json;
    expect(body).toMatchObject({
      x402Version: 2,
      resource: { url: `${api402}/weather/lisbon`, description: 'Weather by city' },
      accepts: [{ scheme: 'exact', network: 'bsv:local', amount: '1', extra: { serverKey: bare.headers.get('x-bsv-server') } }],
    });
  });

  it('is paid by `pnpm wallet fetch` within --max-sats, and the credential bought passes the next request without paying', async () => {
    const paid = await wallet(chainPort, customer, 'fetch', `${api402}/weather/lisbon`, '--max-sats', '10');
    expect(paid).toMatchObject({
      status: 200,
      paid: { satoshis: 1, scheme: 'x402' },
      headers: { 'payment-response': { success: true, network: 'bsv:local' } },
      body: { city: 'lisbon' },
    });
    const { txid } = (paid as Json).paid;
    expect((paid as Json).headers['payment-response'].transaction).toBe(txid);

    const again = await wallet(chainPort, customer, 'fetch', `${api402}/weather/porto`, '--max-sats', '10');
    expect(again).toMatchObject({ status: 200, paid: null, body: { city: 'porto' } });

    const payments = await api(instance.base, 'GET', '/api/v1/402/payments', paygateKey);
    expect(payments.body.data).toEqual([
      expect.objectContaining({ txid, satoshis: 1, protocol: 'x402', calls: 10, calls_used: 1, path: '/weather/*' }),
    ]);
  });
});
