import { P2PKH, PrivateKey, Transaction } from '@bsv/sdk';
import { findReceipt, hashOrderLines, receiptScript } from '@ctk/chain';
import { mineBlocks } from '@ctk/chain/local';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startJsonServer } from './http-server.js';
import { closedPort, fundedWallet, startTestChain, wallet, type TestChain } from './support.js';

let chain: TestChain;
beforeAll(async () => {
  chain = await startTestChain();
});
afterAll(() => chain?.close());

type Mode = 'p2p-hex' | 'p2p-beef' | 'basic';
const LINES_HASH = hashOrderLines([{ item_id: null, name: 'Espresso', quantity: 1, unit_price_minor: 300, currency: 'USD' }]);

/**
 * A minimal paymail (bsvalias) receiver for alias "shop": the capability document, a P2P payment
 * destination whose outputs include a receipt, receive-transaction (raw hex or BEEF) that checks the
 * outputs against the reference and broadcasts, or only the basic payment destination.
 */
async function paymailServer(mode: Mode) {
  const merchant = PrivateKey.fromRandom().toAddress('testnet');
  const references = new Map<string, { satoshis: number }>();
  const received: Array<{ reference: string; txid: string; metadata: { pubkey: string; signature: string } }> = [];
  const server = await startJsonServer(async ({ method, path, body }, base) => {
    const request = body as Record<string, unknown>;
    if (path === '/.well-known/bsvalias') {
      const capabilities: Record<string, string> =
        mode === 'basic'
          ? { paymentDestination: `${base}/address/{alias}@{domain.tld}` }
          : {
              '2a40af698840': `${base}/p2p/{alias}@{domain.tld}`,
              [mode === 'p2p-beef' ? '5c55a7fdb7bb' : '5f1323cddf31']: `${base}/receive/{alias}@{domain.tld}`,
            };
      return { body: { bsvalias: '1.0', capabilities } };
    }
    const [, action, paymail] = /^\/(\w+)\/(.+)$/.exec(path) ?? [];
    if (!paymail?.startsWith('shop@')) return { status: 404, body: { message: `Paymail ${paymail} not found` } };
    if (method === 'POST' && action === 'address') return { body: { output: new P2PKH().lock(merchant).toHex() } };
    if (method === 'POST' && action === 'p2p') {
      const reference = `ref-${references.size + 1}`;
      references.set(reference, { satoshis: request.satoshis as number });
      const receipt = receiptScript({ merchant: paymail, reference, linesHash: LINES_HASH });
      return {
        body: {
          reference,
          outputs: [
            { script: new P2PKH().lock(merchant).toHex(), satoshis: request.satoshis },
            { script: receipt.toHex(), satoshis: 0 },
          ],
        },
      };
    }
    if (method === 'POST' && action === 'receive') {
      const expected = references.get(request.reference as string);
      const tx = mode === 'p2p-beef' ? Transaction.fromHexBEEF(request.beef as string) : Transaction.fromHex(request.hex as string);
      if (mode === 'p2p-beef' && !(await tx.verify(chain.client.chainTracker)))
        return { status: 400, body: { message: 'BEEF does not verify' } };
      const pays = tx.outputs.some(
        (output) => output.lockingScript.toHex() === new P2PKH().lock(merchant).toHex() && output.satoshis === expected?.satoshis,
      );
      if (!expected || !pays) return { status: 400, body: { message: 'transaction does not pay the reference' } };
      await chain.client.broadcast(mode === 'p2p-beef' ? (request.beef as string) : tx);
      received.push({ reference: request.reference as string, txid: tx.id('hex'), metadata: request.metadata as never });
      return { body: { txid: tx.id('hex'), note: 'received, thank you' } };
    }
    return { status: 404, body: { message: 'no such route' } };
  });
  // The port locates the service; the paymail itself (what the receiver and the receipt name) is alias@host.
  return { ...server, merchant, received, target: `shop@${server.host}`, paymail: 'shop@127.0.0.1' };
}

const balanceOf = async (address: string) => (await chain.client.listUnspent(address)).reduce((sum, coin) => sum + coin.satoshis, 0);

describe('pay a paymail', () => {
  it("uses P2P destination and receive-transaction: the merchant's outputs and receipt, delivered as raw hex", async () => {
    const { env } = await fundedWallet(chain, 50_000);
    const shop = await paymailServer('p2p-hex');
    try {
      const run = await wallet(['pay', shop.target, '--amount', '1500', '--json'], env);
      expect(run.err).toEqual([]);
      const paid = run.json<{ txid: string }>();
      expect(paid).toMatchObject({
        to: shop.paymail,
        satoshis: 1500,
        via: 'paymail P2P (raw transaction)',
        note: 'received, thank you',
        receipt: { merchant: shop.paymail, reference: 'ref-1', linesHash: LINES_HASH },
      });
      expect(shop.received).toEqual([
        {
          reference: 'ref-1',
          txid: paid.txid,
          metadata: expect.objectContaining({ pubkey: expect.any(String), signature: expect.any(String) }),
        },
      ]);
      expect(await balanceOf(shop.merchant)).toBe(1500);
      expect(findReceipt((await chain.client.getTransaction(paid.txid))!.tx)?.reference).toBe('ref-1');
    } finally {
      await shop.close();
    }
  });

  it('sends BEEF when the receiver offers it, which the receiver verifies against the chain', async () => {
    const { env } = await fundedWallet(chain, 50_000);
    await mineBlocks(chain.running.url, 1);
    const shop = await paymailServer('p2p-beef');
    try {
      const first = await wallet(['pay', shop.target, '--amount', '700', '--json'], env);
      expect(first.err).toEqual([]);
      expect(first.json()).toMatchObject({ via: 'paymail P2P (BEEF)' });
      // The change of an unmined payment funds the next: its BEEF carries the unmined parent too.
      const second = await wallet(['pay', shop.target, '--amount', '800', '--json'], env);
      expect(second.err).toEqual([]);
      expect(await balanceOf(shop.merchant)).toBe(1500);
    } finally {
      await shop.close();
    }
  });

  it('falls back to the basic payment destination and broadcasts itself', async () => {
    const { env } = await fundedWallet(chain, 50_000);
    const shop = await paymailServer('basic');
    try {
      const run = await wallet(
        [
          'pay',
          shop.target,
          '--amount',
          '2000',
          '--reference',
          'ORD-3',
          '--lines',
          JSON.stringify([{ item_id: null, name: 'Espresso', quantity: 1, unit_price_minor: 300, currency: 'USD' }]),
          '--json',
        ],
        env,
      );
      expect(run.err).toEqual([]);
      expect(run.json()).toMatchObject({
        via: 'paymail payment destination (broadcast)',
        receipt: { merchant: shop.paymail, reference: 'ORD-3', linesHash: LINES_HASH },
      });
      expect(await balanceOf(shop.merchant)).toBe(2000);
    } finally {
      await shop.close();
    }
  });

  it('says so, in one line, when the paymail or its domain does not exist', async () => {
    const { env } = await fundedWallet(chain, 50_000);
    const shop = await paymailServer('p2p-hex');
    try {
      const unknown = await wallet(['pay', `nobody@${shop.host}`, '--amount', '100'], env);
      expect(unknown.err).toEqual(['ctk-wallet: Paymail nobody@127.0.0.1 not found.']);
      const port = await closedPort();
      const nowhere = await wallet(['pay', `shop@127.0.0.1:${port}`, '--amount', '100'], env);
      expect(nowhere.err).toEqual([`ctk-wallet: The paymail service at 127.0.0.1:${port} is unreachable (ECONNREFUSED).`]);
      const noAmount = await wallet(['pay', shop.target], env);
      expect(noAmount.err).toEqual(['ctk-wallet: Paying a paymail needs --amount <satoshis>.']);
    } finally {
      await shop.close();
    }
  });
});
