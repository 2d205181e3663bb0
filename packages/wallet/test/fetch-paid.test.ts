import { P2PKH, Transaction } from '@bsv/sdk';
import { mineBlocks } from '@ctk/chain/local';
import { paygateFastify } from '@ctk/paygate/server';
import { startFakeGate, type FakeGate } from '@ctk/paygate/testing';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { closedPort, fundedWallet, startTestChain, wallet, type TestChain } from './support.js';

let chain: TestChain;
let gate: FakeGate;
let server: FastifyInstance;
let base: string;

beforeAll(async () => {
  chain = await startTestChain();
  // The gate of the contract, standing in for the gateway: SPV of the BEEF against the local chain, then broadcast.
  gate = await startFakeGate({
    resources: [
      { method: 'GET', path: '/weather/*', price_satoshis: 5, grant: { kind: 'calls', calls: 2 } },
      { method: 'POST', path: '/reports', price_satoshis: 7, grant: { kind: 'window', seconds: 600 } },
    ],
    async acceptTransaction({ beef }) {
      const tx = Transaction.fromBEEF(beef);
      if (!(await tx.verify(chain.client.chainTracker))) throw new Error('The BEEF does not prove itself.');
      await chain.client.broadcast(tx);
    },
  });
  server = Fastify();
  await server.register(paygateFastify, { gateUrl: gate.url, key: gate.key, account: gate.account });
  server.get('/weather/:day', { paygate: true }, async (request) => ({ day: (request.params as { day: string }).day, forecast: 'sunny' }));
  server.post('/reports', { paygate: true }, async (request) => ({ received: request.body }));
  base = await server.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await server?.close();
  await gate?.close();
  await chain?.close();
});

let env: Record<string, string>;
let address: string;
beforeEach(async () => {
  ({ env, address } = await fundedWallet(chain, 50_000));
});

const balanceOf = async (owner: string) => (await chain.client.listUnspent(owner)).reduce((sum, coin) => sum + coin.satoshis, 0);

describe('ctk-wallet fetch', () => {
  it('pays a 402 within --max-sats with a BEEF that proves itself, prints the body, then uses the credential it bought', async () => {
    await mineBlocks(chain.running.url, 1);
    const run = await wallet(['fetch', `${base}/weather/today`, '--max-sats', '10'], env);
    expect(run.code).toBe(0);
    expect(run.out).toEqual([JSON.stringify({ day: 'today', forecast: 'sunny' })]);
    expect(run.err).toEqual([
      expect.stringMatching(new RegExp(`^Paid 5 satoshis for GET ${base}/weather/today \\(fee \\d+\\), txid [0-9a-f]{64}\\.$`)),
    ]);
    const [payment] = gate.payments.slice(-1);
    expect((await chain.client.getStatus(payment!.txid)).state).toBe('seen'); // the gate broadcast it after SPV

    // A calls grant of 2: the paid request was the first; the second goes on the credential kept in the wallet file.
    const payments = gate.payments.length;
    const again = await wallet(['fetch', `${base}/weather/tomorrow`, '--max-sats', '10', '--json'], env);
    expect(again.code).toBe(0);
    expect(again.json()).toMatchObject({ status: 200, paid: null, body: { day: 'tomorrow' } });
    expect(gate.payments).toHaveLength(payments);
  });

  it('reports the payment with --json and keeps it in the history', async () => {
    const before = await balanceOf(address);
    const run = await wallet(['fetch', `${base}/weather/monday`, '--max-sats', '5', '--json'], env);
    expect(run.err).toEqual([]);
    const answer = run.json<{ paid: { txid: string; satoshis: number; fee: number } }>();
    expect(answer).toMatchObject({
      status: 200,
      url: `${base}/weather/monday`,
      paid: { txid: expect.stringMatching(/^[0-9a-f]{64}$/), satoshis: 5, scheme: 'x402' },
      headers: {
        'payment-response': { success: true, transaction: answer.paid.txid, network: 'bsv:local' },
        'x-ctk-credential': expect.stringMatching(/^[\w-]+\.[\w-]+\.[\w-]+$/),
      },
      body: { day: 'monday', forecast: 'sunny' },
    });
    expect(await balanceOf(address)).toBe(before - 5 - answer.paid.fee);
    const history = await wallet(['history', '--json'], env);
    expect(JSON.stringify(history.json())).toContain(answer.paid.txid);
  });

  it('sends --data with --method, again with the payment', async () => {
    const run = await wallet(['fetch', `${base}/reports`, '--max-sats', '7', '--data', '{"temperature":21}', '--json'], env);
    expect(run.err).toEqual([]);
    expect(run.json()).toMatchObject({ status: 200, paid: { satoshis: 7 }, body: { received: { temperature: 21 } } });
  });

  it('pays nothing without --max-sats, or over it, and says so in one line', async () => {
    const before = gate.payments.length;
    const none = await wallet(['fetch', `${base}/weather/today`], env);
    expect(none).toMatchObject({ code: 1, out: [] });
    expect(none.err).toEqual([
      `ctk-wallet: GET ${base}/weather/today costs 5 satoshis: pass --max-sats 5 (or more) to pay it. Nothing was paid.`,
    ]);
    const over = await wallet(['fetch', `${base}/weather/today`, '--max-sats', '4'], env);
    expect(over.err).toEqual([`ctk-wallet: GET ${base}/weather/today costs 5 satoshis, over --max-sats 4. Nothing was paid.`]);
    expect(gate.payments).toHaveLength(before);
  });

  it('fails in one line when the server answers an error or cannot be reached', async () => {
    const missing = await wallet(['fetch', `${base}/nowhere`], env);
    expect(missing.err).toEqual([`ctk-wallet: GET ${base}/nowhere answered 404: Route GET:/nowhere not found.`]);
    const port = await closedPort();
    const closed = await wallet(['fetch', `http://127.0.0.1:${port}/weather`], env);
    expect(closed.err).toEqual([`ctk-wallet: 127.0.0.1:${port} is unreachable (ECONNREFUSED).`]);
  });

  it('pays the output the 402 names', async () => {
    const run = await wallet(['fetch', `${base}/weather/friday`, '--max-sats', '5', '--json'], env);
    const { txid } = run.json<{ paid: { txid: string } }>().paid;
    const tx = (await chain.client.getTransaction(txid))!.tx;
    const paid = tx.outputs.filter((output) => output.satoshis === 5);
    expect(paid).toHaveLength(1);
    expect(paid[0]!.lockingScript.toHex()).not.toBe(new P2PKH().lock(address).toHex());
  });
});
