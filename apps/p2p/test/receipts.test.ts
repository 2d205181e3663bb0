import { P2PKH, PrivateKey } from '@bsv/sdk';
import { hashOrderLines, receiptScript, type OrderLine } from '@ctk/chain';
import { mineBlocks } from '@ctk/chain/local';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failure, fundedCustomer, payOutputs, startStack, type TestStack } from './support.js';

const LINES: OrderLine[] = [{ item_id: 'itm_latte', name: 'Latte', quantity: 2, unit_price_minor: 450, currency: 'USD' }];
const protoLines = LINES.map((line) => ({
  itemId: line.item_id ?? undefined,
  name: line.name,
  quantity: BigInt(line.quantity),
  unitPriceMinor: BigInt(line.unit_price_minor),
  currency: line.currency,
}));

let stack: TestStack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack.close());

/** A purchase as a wallet pays it: the merchant's output, the receipt, then the customer's change. */
async function purchase(reference: string) {
  const merchant = PrivateKey.fromRandom().toAddress('testnet');
  const merchantScript = new P2PKH().lock(merchant).toHex();
  const receipt = receiptScript({ merchant: 'cafe@shop.example', reference, linesHash: hashOrderLines(LINES) }).toHex();
  const tx = await payOutputs(await fundedCustomer(stack.chain, 50_000), [
    { script: merchantScript, satoshis: 10_000 },
    { script: receipt, satoshis: 0 },
  ]);
  await stack.chainClient.broadcast(tx);
  return { txid: tx.id('hex'), merchant, merchantScript };
}

describe('VerifyReceipt', () => {
  it("lists only the outputs before the receipt as paid: the customer's change after it is not", async () => {
    const { txid, merchant, merchantScript } = await purchase('ORD-1');
    const answer = await stack.client.verifyReceipt({ txid: txid.toUpperCase() });
    expect(answer).toMatchObject({ txid, merchant: 'cafe@shop.example', reference: 'ORD-1', receiptVout: 1, status: 'seen' });
    expect(answer.paidOutputs).toEqual([{ vout: 0, satoshis: 10_000n, address: merchant, script: merchantScript }]);
    expect(answer).toMatchObject({ linesStatus: 'unknown', verified: false, blockHeight: undefined, merkleProof: undefined });
  });

  it('verifies a mined purchase and the lines given against its hash', async () => {
    const { txid } = await purchase('ORD-2');
    const { height } = await mineBlocks(stack.chain.url, 1);
    const answer = await stack.client.verifyReceipt({ txid, checkLines: true, lines: protoLines });
    expect(answer).toMatchObject({
      status: 'mined',
      blockHeight: BigInt(height),
      merkleProof: 'valid',
      linesStatus: 'match',
      verified: true,
    });
    const forged = await stack.client.verifyReceipt({ txid, checkLines: true, lines: [{ ...protoLines[0]!, quantity: 3n }] });
    expect(forged).toMatchObject({ linesStatus: 'mismatch', verified: false });
  });

  it.each([
    ['a txid that is not 64 hex characters', { txid: 'not-a-txid' }, 'txid'],
    ['no lines when lines are to be checked', { txid: 'ab'.repeat(32), checkLines: true, lines: [] }, 'lines'],
    ['a quantity of zero', { txid: 'ab'.repeat(32), checkLines: true, lines: [{ ...protoLines[0]!, quantity: 0n }] }, 'lines.0.quantity'],
    [
      'a lower-case currency',
      { txid: 'ab'.repeat(32), checkLines: true, lines: [{ ...protoLines[0]!, currency: 'usd' }] },
      'lines.0.currency',
    ],
  ])('refuses %s as validation_failed naming the field', async (_, request, field) => {
    expect(await failure(stack.client.verifyReceipt(request))).toMatchObject({ code: 'validation_failed', details: { field } });
  });

  it('answers not_found for a transaction the chain does not have', async () => {
    expect(await failure(stack.client.verifyReceipt({ txid: 'ab'.repeat(32) }))).toMatchObject({ code: 'not_found' });
  });
});
