import { P2PKH, PrivateKey, Transaction } from '@bsv/sdk';
import { findReceipt, hashOrderLines, receiptScript, type OrderLine } from '@ctk/chain';
import { mineBlocks } from '@ctk/chain/local';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startJsonServer } from './http-server.js';
import { fundedWallet, startTestChain, wallet, type TestChain } from './support.js';

const LINES: OrderLine[] = [{ item_id: 'itm_latte', name: 'Latte', quantity: 2, unit_price_minor: 450, currency: 'USD' }];

let chain: TestChain;
beforeAll(async () => {
  chain = await startTestChain();
});
afterAll(() => chain?.close());

const merchantAddress = () => PrivateKey.fromRandom().toAddress('testnet');
const balanceOf = async (address: string) => (await chain.client.listUnspent(address)).reduce((sum, coin) => sum + coin.satoshis, 0);

describe('pay bitcoin: (BIP21)', () => {
  it("pays the amount in BSV to the address, change back to the wallet, fee by the chain's policy", async () => {
    const { env, address } = await fundedWallet(chain, 100_000);
    const merchant = merchantAddress();
    const run = await wallet(['pay', `bitcoin:${merchant}?amount=0.0001&label=Blue%20Bottle&message=Order%2042`, '--json'], env);
    expect(run.err).toEqual([]);
    const paid = run.json<{ txid: string; satoshis: number; fee: number; to: string; note: string }>();
    expect(paid).toMatchObject({ satoshis: 10_000, to: `${merchant} (Blue Bottle)`, via: 'broadcast', note: 'Order 42', receipt: null });
    expect(paid.fee).toBeGreaterThan(0);
    expect(paid.fee).toBeLessThan(10);
    expect(await balanceOf(merchant)).toBe(10_000);
    expect(await balanceOf(address)).toBe(100_000 - 10_000 - paid.fee);
    expect((await chain.client.getStatus(paid.txid)).state).toBe('seen');

    const { transactions } = (await wallet(['history', '--json'], env)).json<{ transactions: Array<{ txid: string }> }>();
    expect(transactions).toEqual([
      { txid: paid.txid, height: null, net_satoshis: -(10_000 + paid.fee), to: `${merchant} (Blue Bottle)`, reference: null },
      { txid: expect.stringMatching(/^[0-9a-f]{64}$/), height: null, net_satoshis: 100_000 },
    ]);
  });

  it('adds the receipt OP_RETURN when given a reference and the order lines', async () => {
    const { env } = await fundedWallet(chain, 100_000);
    const run = await wallet(
      [
        'pay',
        `bitcoin:${merchantAddress()}`,
        '--amount',
        '900',
        '--merchant',
        'cafe@shop.example',
        '--reference',
        'ORD-7',
        '--lines',
        JSON.stringify(LINES),
        '--json',
      ],
      env,
    );
    const { txid } = run.json<{ txid: string }>();
    const onChain = await chain.client.getTransaction(txid);
    expect(findReceipt(onChain!.tx)).toMatchObject({ merchant: 'cafe@shop.example', reference: 'ORD-7', linesHash: hashOrderLines(LINES) });
  });

  it('spends several coins, confirmed and not, when one is not enough', async () => {
    const { env, address } = await fundedWallet(chain, 6_000);
    await mineBlocks(chain.running.url, 1);
    await wallet(['faucet', '7000'], env);
    const run = await wallet(['pay', `bitcoin:${merchantAddress()}?amount=0.0001`, '--json'], env);
    expect(run.code).toBe(0);
    expect(await balanceOf(address)).toBe(13_000 - 10_000 - run.json<{ fee: number }>().fee);
  });

  it('refuses what it cannot pay, with one line and exit code 1', async () => {
    const { env } = await fundedWallet(chain, 5_000);
    const cases: Array<[string[], RegExp]> = [
      [
        ['pay', `bitcoin:${merchantAddress()}?amount=1`],
        /^ctk-wallet: Insufficient funds: the wallet has 5000 satoshis, the payment needs 100000\d{3} \(100000000 plus the fee\)\.$/,
      ],
      [['pay', `bitcoin:${merchantAddress()}`], /^ctk-wallet: The URI has no amount: add --amount <satoshis>\.$/],
      [['pay', `bitcoin:${merchantAddress()}?amount=0.000000001`], /not a BSV amount/],
      [['pay', `bitcoin:${merchantAddress()}?amount=0.0001`, '--amount', '5'], /asks for 10000 satoshis and --amount says 5/],
      [['pay', 'bitcoin:1NotAnAddress?amount=0.0001'], /is not a P2PKH address for the local network/],
      [['pay', `bitcoin:${merchantAddress()}?amount=0.0001&req-escrow=1`], /requires "req-escrow"/],
      [['pay', 'somebody'], /give a bitcoin: URI, a pay: URI or a paymail/],
    ];
    for (const [args, message] of cases) {
      const run = await wallet(args, env);
      expect({ args, code: run.code, lines: run.err.length }).toEqual({ args, code: 1, lines: 1 });
      expect(run.err[0]).toMatch(message);
    }
  });

  it('says the wallet has no coins', async () => {
    const { env } = await fundedWallet(chain, 1_000);
    const fresh = { ...env, CTK_WALLET_FILE: `${env.CTK_WALLET_FILE}.empty` };
    await wallet(['create'], fresh);
    const run = await wallet(['pay', `bitcoin:${merchantAddress()}?amount=0.00001`], fresh);
    expect(run.err).toEqual([
      expect.stringMatching(/^ctk-wallet: The wallet has no coins: send some to \w+ \(on the local chain: ctk-wallet faucet\)\.$/),
    ]);
  });
});

describe('pay pay:?r=<url> (BIP270 payment request)', () => {
  it("pays the request's outputs, receipt included, posts the payment, and broadcasts once acknowledged", async () => {
    const { env } = await fundedWallet(chain, 100_000);
    const merchant = merchantAddress();
    const receipt = receiptScript({ merchant: 'cafe@shop.example', reference: 'ORD-9', linesHash: hashOrderLines(LINES) });
    const payments: Array<{ merchantData: string; transaction: string; refundTo?: string }> = [];
    const server = await startJsonServer(({ method, path, body }) => {
      if (method === 'GET' && path === '/r/ORD-9') {
        return {
          body: {
            network: 'bitcoin-sv',
            outputs: [
              { amount: 900, script: new P2PKH().lock(merchant).toHex() },
              { amount: 0, script: receipt.toHex() },
            ],
            creationTimestamp: Math.floor(Date.now() / 1000),
            expirationTimestamp: Math.floor(Date.now() / 1000) + 600,
            memo: 'Blue Bottle order ORD-9',
            paymentUrl: '/pay/ORD-9',
            merchantData: 'ORD-9',
          },
        };
      }
      if (method === 'POST' && path === '/pay/ORD-9') {
        payments.push(body as never);
        return { body: { payment: body, memo: 'Thanks for your order' } };
      }
      return { status: 404, body: { error: 'not found' } };
    });
    try {
      const run = await wallet(['pay', `pay:?r=${encodeURIComponent(`${server.base}/r/ORD-9`)}`, '--json'], env);
      expect(run.err).toEqual([]);
      const paid = run.json<{ txid: string }>();
      expect(paid).toMatchObject({
        satoshis: 900,
        note: 'Thanks for your order',
        receipt: { merchant: 'cafe@shop.example', reference: 'ORD-9' },
      });
      expect(payments).toHaveLength(1);
      expect(payments[0]?.merchantData).toBe('ORD-9');
      // A refund goes back to the wallet's own address (BIP270's refundTo).
      const address = (await wallet(['address', '--json'], env)).json<{ address: string }>().address;
      expect(payments[0]?.refundTo).toBe(address);
      expect(Transaction.fromHex(payments[0]!.transaction).id('hex')).toBe(paid.txid);
      expect(await balanceOf(merchant)).toBe(900);
      expect(findReceipt((await chain.client.getTransaction(paid.txid))!.tx)?.reference).toBe('ORD-9');
    } finally {
      await server.close();
    }
  });

  it('does not broadcast a payment the merchant refuses, and refuses expired or missing requests', async () => {
    const { env } = await fundedWallet(chain, 100_000);
    const merchant = merchantAddress();
    const output = { amount: 500, script: new P2PKH().lock(merchant).toHex() };
    const server = await startJsonServer(({ method, path }) => {
      if (path === '/refusing') return { body: { outputs: [output], paymentUrl: '/refused' } };
      if (method === 'POST' && path === '/refused') return { body: { error: 1, memo: 'order already paid' } };
      if (path === '/expired') return { body: { outputs: [output], expirationTimestamp: Math.floor(Date.now() / 1000) - 60 } };
      return { status: 404, body: { error: 'no such request' } };
    });
    try {
      const refused = await wallet(['pay', `pay:?r=${server.base}/refusing`], env);
      expect(refused.err).toEqual(['ctk-wallet: The merchant refused the payment (1: order already paid).']);
      expect(await balanceOf(merchant)).toBe(0);
      const expired = await wallet(['pay', `pay:?r=${server.base}/expired`], env);
      expect(expired.err).toEqual([expect.stringMatching(/^ctk-wallet: The payment request expired at /)]);
      const missing = await wallet(['pay', `pay:?r=${server.base}/nothing`], env);
      expect(missing.err).toEqual([`ctk-wallet: The payment request at ${server.host} answered 404: no such request.`]);
      const insecure = await wallet(['pay', 'pay:?r=http://shop.example/r/1'], env);
      expect(insecure.err).toEqual([expect.stringMatching(/must use https/)]);
    } finally {
      await server.close();
    }
  });
});
