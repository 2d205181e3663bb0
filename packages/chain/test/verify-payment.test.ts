import { LockingScript, OP, P2PKH, PrivateKey, Transaction, Utils } from '@bsv/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyPayment, type ExpectedOutput } from '../src/index.js';
import { fundedWallet, newWallet, payment, rejection, startTestChain, type TestChain } from './support.js';

let chain: TestChain;
beforeAll(async () => {
  chain = await startTestChain();
});
afterAll(() => chain.close());

const p2pkh = (address: string) => new P2PKH().lock(address).toHex();
const reference = (text: string) =>
  new LockingScript([{ op: OP.OP_FALSE }, { op: OP.OP_RETURN }, { op: text.length, data: Utils.toArray(text, 'utf8') }]);
const nothingUsed = async () => false;

/** A payment to `to` with an OP_RETURN carrying `ref` when given, signed by the payer. */
async function pay(to: string, satoshis: number, ref?: string): Promise<Transaction> {
  const payer = await fundedWallet(chain, 100_000);
  const tx = await payment({ ...payer, to, satoshis });
  if (ref) {
    tx.addOutput({ lockingScript: reference(ref), satoshis: 0 });
    await tx.sign();
  }
  return tx;
}

describe('verifyPayment: does a transaction pay what is expected, and does the chain accept it', () => {
  it('accepts a submitted transaction that pays the script and carries the reference, and broadcasts it', async () => {
    const merchant = newWallet();
    const tx = await pay(merchant.address, 10_000, 'order-1');
    const expected: ExpectedOutput[] = [
      { script: p2pkh(merchant.address), satoshis: 10_000 },
      { script: reference('order-1').toHex(), satoshis: 0 },
    ];
    const verified = await verifyPayment({ payment: { transaction: tx.toHex() }, expected, chain: chain.client, isTxidUsed: nothingUsed });
    expect(verified).toMatchObject({
      txid: tx.id('hex'),
      format: 'raw',
      satoshis: 10_000,
      paid: [
        { vout: 0, satoshis: 10_000 },
        { vout: 2, satoshis: 0 },
      ],
    });
    expect(['seen', 'pending']).toContain(verified.status.state);
    expect((await chain.client.getStatus(tx.id('hex'))).state).toBe('seen');
  });

  it('accepts more than the minimum, and a transaction the chain has, by txid', async () => {
    const merchant = newWallet();
    const tx = await pay(merchant.address, 12_345);
    await chain.client.broadcast(tx);
    const verified = await verifyPayment({
      payment: { txid: tx.id('hex') },
      expected: [{ script: p2pkh(merchant.address), satoshis: 10_000 }],
      chain: chain.client,
      isTxidUsed: nothingUsed,
    });
    expect(verified).toMatchObject({ txid: tx.id('hex'), satoshis: 12_345, status: { state: 'seen' } });
    expect(verified.format).toBeUndefined();
  });

  it('accepts BEEF, broadcasting its unmined parent first', async () => {
    const merchant = newWallet();
    const tx = await pay(merchant.address, 5_000);
    const verified = await verifyPayment({
      payment: { transaction: Uint8Array.from(tx.toBEEF()) },
      expected: [{ script: p2pkh(merchant.address), satoshis: 5_000 }],
      chain: chain.client,
      isTxidUsed: nothingUsed,
    });
    expect(verified).toMatchObject({ txid: tx.id('hex'), format: 'beef' });
  });

  it('refuses an underpayment with payment_underpaid and does not broadcast it', async () => {
    const merchant = newWallet();
    const tx = await pay(merchant.address, 9_999);
    const error = await rejection(
      verifyPayment({
        payment: { transaction: tx.toHex() },
        expected: [{ script: p2pkh(merchant.address), satoshis: 10_000 }],
        chain: chain.client,
        isTxidUsed: nothingUsed,
      }),
    );
    expect(error).toMatchObject({ code: 'payment_underpaid', details: { required_satoshis: 10_000, paid_satoshis: 9_999 } });
    expect((await chain.client.getStatus(tx.id('hex'))).state).toBe('unknown');
  });

  it('refuses a payment to another script, or without the expected reference, with payment_wrong_output', async () => {
    const merchant = newWallet();
    const elsewhere = await pay(newWallet().address, 10_000);
    expect(
      await rejection(
        verifyPayment({
          payment: { transaction: elsewhere.toHex() },
          expected: [{ script: p2pkh(merchant.address), satoshis: 10_000 }],
          chain: chain.client,
          isTxidUsed: nothingUsed,
        }),
      ),
    ).toMatchObject({ code: 'payment_wrong_output', details: { expected_output: 0 } });
    const otherReference = await pay(merchant.address, 10_000, 'order-2');
    const expected = [
      { script: p2pkh(merchant.address), satoshis: 10_000 },
      { script: reference('order-3').toHex(), satoshis: 0 },
    ];
    expect(
      await rejection(
        verifyPayment({ payment: { transaction: otherReference.toHex() }, expected, chain: chain.client, isTxidUsed: nothingUsed }),
      ),
    ).toMatchObject({ code: 'payment_wrong_output', details: { expected_output: 1 } });
  });

  it('counts one output once: two expected outputs to one script need two outputs', async () => {
    const merchant = newWallet();
    const tx = await pay(merchant.address, 10_000);
    const script = p2pkh(merchant.address);
    expect(
      await rejection(
        verifyPayment({
          payment: { transaction: tx.toHex() },
          expected: [
            { script, satoshis: 5_000 },
            { script, satoshis: 5_000 },
          ],
          chain: chain.client,
          isTxidUsed: nothingUsed,
        }),
      ),
    ).toMatchObject({ code: 'payment_wrong_output', details: { expected_output: 1 } });
  });

  it('refuses a txid already used, before anything else', async () => {
    const merchant = newWallet();
    const tx = await pay(merchant.address, 10_000);
    const used = new Set([tx.id('hex')]);
    const error = await rejection(
      verifyPayment({
        payment: { transaction: tx.toHex() },
        expected: [{ script: p2pkh(merchant.address), satoshis: 1 }],
        chain: chain.client,
        isTxidUsed: async (txid) => used.has(txid),
      }),
    );
    expect(error).toMatchObject({ code: 'txid_already_used', details: { txid: tx.id('hex') } });
  });

  it("passes on the chain's refusal of a double spend and of a bad signature", async () => {
    const merchant = newWallet();
    const payer = await fundedWallet(chain, 100_000);
    const first = await payment({ ...payer, to: newWallet().address, satoshis: 10_000 });
    const second = await payment({ ...payer, to: merchant.address, satoshis: 10_000 });
    await chain.client.broadcast(first);
    const expected = [{ script: p2pkh(merchant.address), satoshis: 10_000 }];
    expect(
      await rejection(verifyPayment({ payment: { transaction: second.toHex() }, expected, chain: chain.client, isTxidUsed: nothingUsed })),
    ).toMatchObject({ code: 'chain_rejected', details: { tx_status: 'DOUBLE_SPEND_ATTEMPTED', competing_txs: [first.id('hex')] } });

    const other = await fundedWallet(chain, 100_000);
    const forged = await payment({ ...other, to: merchant.address, satoshis: 10_000, signer: PrivateKey.fromRandom() });
    expect(
      await rejection(verifyPayment({ payment: { transaction: forged.toHex() }, expected, chain: chain.client, isTxidUsed: nothingUsed })),
    ).toMatchObject({ code: 'chain_rejected', details: { arc_status: 461 } });
  });

  it('refuses what is not a transaction, and a txid the chain does not know', async () => {
    const expected = [{ script: p2pkh(newWallet().address), satoshis: 1 }];
    expect(
      await rejection(verifyPayment({ payment: { transaction: 'zz' }, expected, chain: chain.client, isTxidUsed: nothingUsed })),
    ).toMatchObject({ code: 'validation_failed' });
    expect(
      await rejection(verifyPayment({ payment: { transaction: '0100' }, expected, chain: chain.client, isTxidUsed: nothingUsed })),
    ).toMatchObject({ code: 'validation_failed' });
    expect(
      await rejection(verifyPayment({ payment: { txid: 'ab'.repeat(32) }, expected, chain: chain.client, isTxidUsed: nothingUsed })),
    ).toMatchObject({ code: 'not_found' });
    expect(
      await rejection(verifyPayment({ payment: { txid: 'nope' }, expected, chain: chain.client, isTxidUsed: nothingUsed })),
    ).toMatchObject({ code: 'validation_failed' });
  });
});
