import { P2PKH, PrivateKey, Transaction } from '@bsv/sdk';
import { createChainClient, hashOrderLines, receiptScript, type ChainClient, type OrderLine } from '@ctk/chain';
import { mineBlocks, requestFaucet, startLocalChain, type RunningLocalChain } from '@ctk/chain/local';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReceiptInstance as startInstance, type ReceiptInstance as Instance } from './receipts-harness.js';

const LINES: OrderLine[] = [
  { item_id: 'itm_latte', name: 'Latte', quantity: 2, unit_price_minor: 450, currency: 'USD' },
  { item_id: null, name: 'Tip', quantity: 1, unit_price_minor: 100, currency: 'USD' },
];

let chain: RunningLocalChain;
let client: ChainClient;
let here: Instance;
let there: Instance;
const merchant = PrivateKey.fromRandom().toAddress('testnet');

/** A customer's payment as the wallet builds it: faucet coins in, the merchant paid, the receipt, change back. */
async function payWithReceipt(reference: string): Promise<string> {
  const customer = PrivateKey.fromRandom();
  const funding = await requestFaucet(chain.url, customer.toAddress('testnet'), 50_000);
  const tx = new Transaction();
  tx.addInput({
    sourceTransaction: Transaction.fromHex(funding.raw_tx),
    sourceOutputIndex: funding.vout,
    unlockingScriptTemplate: new P2PKH().unlock(customer),
  });
  tx.addOutput({ lockingScript: new P2PKH().lock(merchant), satoshis: 10_000 });
  tx.addOutput({
    lockingScript: receiptScript({ merchant: 'cafe@shop.example', reference, linesHash: hashOrderLines(LINES) }),
    satoshis: 0,
  });
  tx.addOutput({ lockingScript: new P2PKH().lock(customer.toAddress('testnet')), satoshis: 50_000 - 10_000 - 200 });
  await tx.sign();
  await client.broadcast(tx);
  return tx.id('hex');
}

const receipt = (gateway: Instance, txid: string, lines?: unknown) =>
  gateway.app.inject(
    lines === undefined
      ? { method: 'GET', url: `/api/v1/receipts/${txid}` }
      : { method: 'POST', url: `/api/v1/receipts/${txid}`, payload: { lines } },
  );

beforeAll(async () => {
  chain = await startLocalChain({ port: 0 });
  client = createChainClient({ network: 'local', localUrl: chain.url, timeoutMs: 5_000, retries: 1 });
  const chainEnv = { CHAIN_NETWORK: 'local', CHAIN_LOCAL_URL: chain.url, CHAIN_RETRIES: '0' };
  [here, there] = await Promise.all([startInstance(chainEnv), startInstance(chainEnv)]);
});

afterAll(async () => {
  await Promise.all([here?.close(), there?.close()]);
  await chain?.close();
});

describe('GET /api/v1/receipts/:txid', () => {
  it('says what was paid to whom, and that it is only seen until mined, on any instance', async () => {
    const txid = await payWithReceipt('ORD-1');
    for (const gateway of [here, there]) {
      const response = await receipt(gateway, txid);
      expect(response.statusCode).toBe(200);
      expect(response.headers['access-control-allow-origin']).toBe('*');
      expect(response.json()).toMatchObject({
        txid,
        merchant: 'cafe@shop.example',
        reference: 'ORD-1',
        lines_hash: hashOrderLines(LINES),
        receipt_vout: 1,
        status: 'seen',
        block_height: null,
        confirmations: 0,
        merkle_proof: null,
        lines: { status: 'unknown', items: null },
        verified: false,
        why: 'The transaction is in the mempool, not yet mined.',
      });
      // The customer's change comes after the receipt: it is not something the purchase paid.
      expect(response.json().paid_outputs).toEqual([
        { vout: 0, satoshis: 10_000, address: merchant, script: new P2PKH().lock(merchant).toHex() },
      ]);
    }
  });

  it('verifies the purchase once mined, with a merkle path to the block header, on both instances', async () => {
    const txid = await payWithReceipt('ORD-2');
    const { height } = await mineBlocks(chain.url, 1);
    for (const gateway of [here, there]) {
      const body = (await receipt(gateway, txid)).json();
      expect(body).toMatchObject({ status: 'mined', block_height: height, confirmations: 1, merkle_proof: 'valid', verified: true });
      expect(body.why).toMatch(/^Mined in block \d+ with a merkle path/);
    }
    await mineBlocks(chain.url, 2);
    expect((await receipt(there, txid.toUpperCase())).json()).toMatchObject({ txid, confirmations: 3, verified: true });
  });

  it('answers 404 for a transaction the chain does not have, and for one without a receipt', async () => {
    const unknown = await receipt(here, 'ab'.repeat(32));
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error.code).toBe('not_found');
    const faucet = await requestFaucet(chain.url, merchant, 1_000);
    const plain = await receipt(there, faucet.txid);
    expect(plain.statusCode).toBe(404);
    expect(plain.json().error.message).toBe(`Transaction ${faucet.txid} carries no receipt.`);
  });

  it('answers 422 for something that is not a txid', async () => {
    const response = await receipt(here, 'not-a-txid');
    expect(response.statusCode).toBe(422);
    expect(response.json().error).toMatchObject({ code: 'validation_failed', details: { field: 'txid' } });
  });
});

describe('POST /api/v1/receipts/:txid with the order lines', () => {
  it('confirms the lines the customer holds match the receipt, on another instance', async () => {
    const txid = await payWithReceipt('ORD-3');
    await mineBlocks(chain.url, 1);
    const body = (await receipt(there, txid, LINES)).json();
    expect(body).toMatchObject({ lines: { status: 'match', items: LINES }, verified: true });
    expect(body.why).toMatch(/the order lines match its hash/);
  });

  it('refuses lines that do not match: not verified, and says why', async () => {
    const txid = await payWithReceipt('ORD-4');
    await mineBlocks(chain.url, 1);
    const forged = [{ ...LINES[0], quantity: 3 }, LINES[1]];
    expect((await receipt(here, txid, forged)).json()).toMatchObject({
      status: 'mined',
      lines: { status: 'mismatch' },
      verified: false,
      why: "The order lines given do not hash to the receipt's lines hash.",
    });
  });

  it('answers 422 for lines that are not lines', async () => {
    const txid = await payWithReceipt('ORD-5');
    const response = await receipt(here, txid, [{ name: 'Latte', quantity: 1.5 }]);
    expect(response.statusCode).toBe(422);
    expect(response.json().error.code).toBe('validation_failed');
    // What a line must hold is p2p's rule, named the same through the gateway.
    for (const [lines, field] of [
      [[], 'lines'],
      [[{ ...LINES[0], quantity: 0 }], 'lines.0.quantity'],
      [[LINES[0], { ...LINES[1], currency: 'usd' }], 'lines.1.currency'],
    ] as const) {
      const refused = await receipt(here, txid, lines);
      expect(refused.statusCode).toBe(422);
      expect(refused.json().error).toMatchObject({ code: 'validation_failed', details: { field } });
    }
  });
});

describe('an instance whose chain is down', () => {
  it('answers 503 chain_unavailable', async () => {
    const down = await startInstance({ CHAIN_NETWORK: 'local', CHAIN_LOCAL_URL: 'http://127.0.0.1:1', CHAIN_RETRIES: '0' });
    try {
      const response = await receipt(down, 'ab'.repeat(32));
      expect(response.statusCode).toBe(503);
      expect(response.json().error.code).toBe('chain_unavailable');
    } finally {
      await down.close();
    }
  });
});
