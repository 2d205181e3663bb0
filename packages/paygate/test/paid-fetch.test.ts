import { P2PKH, PrivateKey } from '@bsv/sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { createPaidFetch, type PaymentMade, type PayRequest } from '../src/client/index.js';
import { startFakeGate, type FakeGate, type FakeGateOptions, type FakeGrant } from '../src/testing/index.js';
import { fastifyApp, signedPayment } from './support.js';

let gate: FakeGate;
let app: Awaited<ReturnType<typeof fastifyApp>>;

/** The fake gate pricing GET /weather/* at 5 (with `grant`) and POST /weather/report at 9, and the app in front. */
async function start(grant: FakeGrant, extra: FakeGateOptions = {}) {
  gate = await startFakeGate({
    resources: [
      { method: 'GET', path: '/weather/*', price_satoshis: 5, grant },
      { method: 'POST', path: '/weather/report', price_satoshis: 9, grant: { kind: 'window', seconds: 60 } },
    ],
    ...extra,
  });
  app = await fastifyApp(gate);
}
afterEach(async () => {
  await app?.app.close();
  await gate?.close();
});

/** A payer that signs real transactions and remembers what it was asked. */
function payer() {
  const asked: PayRequest[] = [];
  return {
    asked,
    pay: async (request: PayRequest) => {
      asked.push(request);
      return signedPayment(request.lockingScript, request.satoshis);
    },
  };
}

describe('createPaidFetch', () => {
  it('pays a 402 once, then sends the credential for the same resource without paying', async () => {
    await start({ kind: 'window', seconds: 3600 });
    const { asked, pay } = payer();
    const payments: PaymentMade[] = [];
    const paidFetch = createPaidFetch({ pay, maxSatoshis: 100, onPayment: (payment) => payments.push(payment) });

    const first = await paidFetch(`${app.base}/weather/today`);
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ day: 'today', forecast: 'sunny' });
    expect(asked).toEqual([
      {
        url: `${app.base}/weather/today`,
        method: 'GET',
        lockingScript: expect.stringMatching(/^76a914[0-9a-f]{40}88ac$/),
        satoshis: 5,
        scheme: 'x402',
        network: 'bsv:local',
      },
    ]);
    expect(paidFetch.spent).toBe(5);
    expect(payments).toEqual([
      expect.objectContaining({
        satoshis: 5,
        status: 200,
        credential: true,
        txid: gate.payments[0]!.txid,
        paymentResponse: expect.objectContaining({ success: true }),
      }),
    ]);

    const checks = gate.requests.check;
    const second = await paidFetch(`${app.base}/weather/tomorrow`);
    expect(second.status).toBe(200);
    expect(asked).toHaveLength(1);
    expect(gate.requests.check).toBe(checks);
    expect(paidFetch.spent).toBe(5);
  });

  it('refuses a price past its cap and pays nothing', async () => {
    await start({ kind: 'window', seconds: 3600 });
    const { asked, pay } = payer();
    const paidFetch = createPaidFetch({ pay, maxSatoshis: 4 });
    await expect(paidFetch(`${app.base}/weather/today`)).rejects.toThrow(
      `GET ${app.base}/weather/today costs 5 satoshis: with 0 already spent that is past the cap of 4. Nothing was paid.`,
    );
    expect(asked).toEqual([]);
    expect(gate.payments).toEqual([]);
    expect(paidFetch.spent).toBe(0);
  });

  it('drops a credential the server refuses, pays again, and stops at the cap counted over every payment', async () => {
    await start({ kind: 'calls', calls: 1 });
    const { asked, pay } = payer();
    const paidFetch = createPaidFetch({ pay, maxSatoshis: 10 });
    expect((await paidFetch(`${app.base}/weather/today`)).status).toBe(200);
    // The one call was the paid request: the credential is refused, and a second payment made.
    expect((await paidFetch(`${app.base}/weather/today`)).status).toBe(200);
    expect(asked).toHaveLength(2);
    expect(gate.checks[2]!.headers).toEqual({}); // the used-up credential never reached the gate
    await expect(paidFetch(`${app.base}/weather/today`)).rejects.toThrow('with 10 already spent that is past the cap of 10');
    expect(gate.payments).toHaveLength(2);
  });

  it('pays a 402 that offers only BRC-121 with the five x-bsv headers', async () => {
    await start({ kind: 'window', seconds: 3600 }, { offers: 'brc121' });
    const { asked, pay } = payer();
    const paidFetch = createPaidFetch({ pay, maxSatoshis: 5 });
    const response = await paidFetch(`${app.base}/weather/today`);
    expect(response.status).toBe(200);
    expect(asked[0]).toMatchObject({ scheme: 'brc121', satoshis: 5 });
    expect(Object.keys(gate.checks[1]!.headers).sort()).toEqual(['x-bsv-beef', 'x-bsv-nonce', 'x-bsv-sender', 'x-bsv-time', 'x-bsv-vout']);
    expect(response.headers.get('x-ctk-credential')).toBeTruthy();
  });

  it('pays BRC-121 as @bsv/402-pay does with an identity key, to the BRC-42 key the middleware derives with the merchant identity key', async () => {
    const merchant = PrivateKey.fromRandom();
    await start({ kind: 'window', seconds: 3600 }, { offers: 'brc121' });
    await app.app.close();
    app = await fastifyApp(gate, { identityKey: merchant.toWif() });
    const payerKey = PrivateKey.fromRandom();
    const { asked, pay } = payer();
    const paidFetch = createPaidFetch({ pay, maxSatoshis: 5, identityKey: payerKey.toHex() });

    const bare = await fetch(`${app.base}/weather/today`);
    expect(bare.headers.get('x-bsv-server')).toBe(merchant.toPublicKey().toString());
    const response = await paidFetch(`${app.base}/weather/today`);
    expect(response.status).toBe(200);
    const { headers, payee_key: payeeKey } = gate.checks.at(-1)!;
    expect(headers['x-bsv-sender']).toBe(payerKey.toPublicKey().toString());
    // The merchant's wallet spends what was paid with the key BRC-29 gives it: the key the middleware named.
    const keyId = `${headers['x-bsv-nonce']} ${Buffer.from(headers['x-bsv-time']!).toString('base64')}`;
    const spendKey = merchant.deriveChild(payerKey.toPublicKey(), `2-3241645161d8-${keyId}`);
    expect(payeeKey).toBe(spendKey.toPublicKey().toString());
    expect(asked[0]!.lockingScript).toBe(new P2PKH().lock(spendKey.toPublicKey().toHash() as number[]).toHex());
  });

  it('sends a string body again with the payment, and refuses to pay for a stream it cannot resend', async () => {
    await start({ kind: 'window', seconds: 3600 });
    const { asked, pay } = payer();
    const paidFetch = createPaidFetch({ pay, maxSatoshis: 100 });
    const report = { temperature: 21 };
    const response = await paidFetch(`${app.base}/weather/report`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(report),
    });
    expect(await response.json()).toEqual({ received: report });

    const stream = new ReadableStream({ start: (controller) => (controller.enqueue(new TextEncoder().encode('{}')), controller.close()) });
    const fresh = createPaidFetch({ pay, maxSatoshis: 100 });
    await expect(
      fresh(`${app.base}/weather/report`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: stream,
        duplex: 'half',
      } as RequestInit),
    ).rejects.toThrow('cannot be sent again');
    expect(asked).toHaveLength(1);
  });

  it('refuses an offer on a network it does not pay on', async () => {
    await start({ kind: 'window', seconds: 3600 });
    const { asked, pay } = payer();
    const paidFetch = createPaidFetch({ pay, maxSatoshis: 100, networks: ['bsv:mainnet'] });
    await expect(paidFetch(`${app.base}/weather/today`)).rejects.toThrow(
      'offers no payment this client can make (offered: exact on bsv:local',
    );
    expect(asked).toEqual([]);
  });
});
