import { Beef, LockingScript, MerklePath, P2PKH, PrivateKey, Transaction, UnlockingScript } from '@bsv/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyBeef } from '../src/index.js';
import { mineBlocks } from '../src/local/index.js';
import { fundedWallet, newWallet, payment, rejection, startTestChain, type TestChain } from './support.js';

let chain: TestChain;
beforeAll(async () => {
  chain = await startTestChain();
});
afterAll(() => chain.close());

/** A faucet payment to a fresh wallet, mined, carrying the merkle path the local chain gives for it. */
async function minedCoin(satoshis = 100_000) {
  const wallet = await fundedWallet(chain, satoshis);
  await mineBlocks(chain.running.url);
  const status = await chain.client.getStatus(wallet.source.id('hex'));
  wallet.source.merklePath = status.merklePath!;
  return wallet;
}

const beefOf = (tx: Transaction) => Uint8Array.from(tx.toBEEF());

describe('verifyBeef: SPV for a submitted BEEF', () => {
  it('accepts a payment whose parent is mined, proven by the merkle path the chain gave', async () => {
    const payer = await minedCoin();
    const tx = await payment({ ...payer, to: newWallet().address, satoshis: 1_000 });
    const verified = await verifyBeef(beefOf(tx), chain.client.chainTracker);
    expect(verified.txid).toBe(tx.id('hex'));
    expect(verified.tx.id('hex')).toBe(tx.id('hex'));
    expect(verified.tx.inputs[0]!.sourceTransaction!.id('hex')).toBe(payer.source.id('hex'));
    expect(verified.beef.txs).toHaveLength(2);
  });

  it('accepts an Atomic BEEF (BRC-95): its subject is the txid it names', async () => {
    const payer = await minedCoin();
    const tx = await payment({ ...payer, to: newWallet().address, satoshis: 1_000 });
    const verified = await verifyBeef(Uint8Array.from(tx.toAtomicBEEF()), chain.client.chainTracker);
    expect(verified.txid).toBe(tx.id('hex'));
    expect(verified.beef.atomicTxid).toBe(tx.id('hex'));
  });

  it('accepts a chain of unmined payments down to a mined one, checking each', async () => {
    const payer = await minedCoin();
    const middle = newWallet();
    const parent = await payment({ ...payer, to: middle.address, satoshis: 50_000 });
    const child = await payment({ source: parent, vout: 0, key: middle.key, to: newWallet().address, satoshis: 20_000 });
    expect((await verifyBeef(beefOf(child), chain.client.chainTracker)).txid).toBe(child.id('hex'));
  });

  it('refuses a merkle path that does not lead to the block’s merkle root (payment_invalid)', async () => {
    const payer = await minedCoin();
    const txid = payer.source.id('hex');
    const tampered = MerklePath.fromHex(payer.source.merklePath!.toHex());
    const sibling = tampered.path[0]!.find((leaf) => leaf.hash !== txid)!;
    sibling.hash = 'ab'.repeat(32);
    payer.source.merklePath = tampered;
    const tx = await payment({ ...payer, to: newWallet().address, satoshis: 1_000 });
    const error = await rejection(verifyBeef(beefOf(tx), chain.client.chainTracker));
    expect(error).toMatchObject({ code: 'payment_invalid', details: { txid, subject: tx.id('hex'), block_height: tampered.blockHeight } });
    expect(error.message).toMatch(/is not the merkle root of block \d+ of this chain/);
  });

  it('refuses a merkle path of a real block for a transaction that is not in it', async () => {
    const payer = await minedCoin();
    const other = await minedCoin();
    payer.source.merklePath = other.source.merklePath!;
    const tx = await payment({ ...payer, to: newWallet().address, satoshis: 1_000 });
    const error = await rejection(verifyBeef(beefOf(tx), chain.client.chainTracker));
    expect(error).toMatchObject({ code: 'payment_invalid', details: { txid: payer.source.id('hex') } });
  });

  it('refuses a bad signature in an unmined ancestor, naming that transaction and input', async () => {
    const payer = await minedCoin();
    const middle = newWallet();
    const forged = await payment({ ...payer, to: middle.address, satoshis: 50_000, signer: PrivateKey.fromRandom() });
    const child = await payment({ source: forged, vout: 0, key: middle.key, to: newWallet().address, satoshis: 20_000 });
    const error = await rejection(verifyBeef(beefOf(child), chain.client.chainTracker));
    expect(error).toMatchObject({ code: 'payment_invalid', details: { txid: forged.id('hex'), subject: child.id('hex'), input: 0 } });
    expect(error.message).toContain(`Input 0 of transaction ${forged.id('hex')} fails its script`);
    // The SDK's interpreter alone reaches the same verdict.
    expect(await rejection(verifyBeef(beefOf(child), chain.client.chainTracker, { scriptChecks: 'sdk' }))).toMatchObject({
      code: 'payment_invalid',
      details: { txid: forged.id('hex'), input: 0 },
    });
  });

  it('refuses a BEEF that lacks an unmined parent', async () => {
    const payer = await minedCoin();
    const middle = newWallet();
    const parent = await payment({ ...payer, to: middle.address, satoshis: 50_000 });
    const child = await payment({ source: parent, vout: 0, key: middle.key, to: newWallet().address, satoshis: 20_000 });
    const beef = new Beef();
    beef.mergeRawTx(child.toBinary());
    const error = await rejection(verifyBeef(Uint8Array.from(beef.toBinary()), chain.client.chainTracker));
    expect(error).toMatchObject({ code: 'payment_invalid', details: { txid: child.id('hex'), input: 0, missing: parent.id('hex') } });
    expect(error.message).toContain('does not carry transaction');
  });

  it('refuses a transaction that pays out more than it spends', async () => {
    const payer = await minedCoin(10_000);
    const tx = await payment({ ...payer, to: newWallet().address, satoshis: 10_001, fee: 0 });
    const error = await rejection(verifyBeef(beefOf(tx), chain.client.chainTracker));
    expect(error).toMatchObject({ code: 'payment_invalid', details: { txid: tx.id('hex'), inputs: 10_000, outputs: 10_001 } });
  });

  it('refuses an unmined transaction without inputs, and one that spends an output twice', async () => {
    const empty = new Beef();
    empty.mergeRawTx(new Transaction(1, [], [{ lockingScript: new P2PKH().lock(newWallet().address), satoshis: 0 }], 0).toBinary());
    expect(await rejection(verifyBeef(Uint8Array.from(empty.toBinary()), chain.client.chainTracker))).toMatchObject({
      code: 'payment_invalid',
    });

    const payer = await minedCoin();
    const [a, b] = [newWallet(), newWallet()];
    const first = await payment({ ...payer, to: a.address, satoshis: 1_000 });
    const second = await payment({ ...payer, to: b.address, satoshis: 2_000 });
    const both = new Transaction();
    both.addInput({ sourceTransaction: first, sourceOutputIndex: 0, unlockingScriptTemplate: new P2PKH().unlock(a.key) });
    both.addInput({ sourceTransaction: second, sourceOutputIndex: 0, unlockingScriptTemplate: new P2PKH().unlock(b.key) });
    both.addOutput({ lockingScript: new P2PKH().lock(newWallet().address), satoshis: 2_500 });
    await both.sign();
    const error = await rejection(verifyBeef(Uint8Array.from(both.toBEEF()), chain.client.chainTracker));
    expect(error).toMatchObject({ code: 'payment_invalid', details: { competing_txid: expect.any(String) } });
    expect(error.message).toContain(`both spend ${payer.source.id('hex')}:${payer.vout}`);
  });

  it('refuses a 64-byte transaction as a proven parent (it could be an inner node of a merkle tree)', async () => {
    const key = PrivateKey.fromRandom();
    // 4 version + 1 + 41 (an input with an empty script) + 1 + 13 (an output with a 4-byte script, OP_1 and three OP_NOPs) + 4 lock time.
    const tiny = new Transaction(
      1,
      [{ sourceTXID: 'ab'.repeat(32), sourceOutputIndex: 0, unlockingScript: new UnlockingScript([]), sequence: 0xffffffff }],
      [{ lockingScript: LockingScript.fromHex('51616161'), satoshis: 5_000 }],
      0,
    );
    expect(tiny.toBinary()).toHaveLength(64);
    tiny.merklePath = MerklePath.fromCoinbaseTxidAndHeight(tiny.id('hex'), 1);
    const spend = new Transaction();
    spend.addInput({ sourceTransaction: tiny, sourceOutputIndex: 0, unlockingScript: new UnlockingScript([]) });
    spend.addOutput({ lockingScript: new P2PKH().lock(key.toAddress()), satoshis: 4_000 });
    const anyRoot = { isValidRootForHeight: async () => true, currentHeight: async () => 1 };
    expect(await rejection(verifyBeef(beefOf(spend), anyRoot))).toMatchObject({
      code: 'payment_invalid',
      details: { txid: tiny.id('hex') },
    });
  });

  it('answers validation_failed (field transaction) for bytes that are not one whole BEEF', async () => {
    const payer = await minedCoin();
    const tx = await payment({ ...payer, to: newWallet().address, satoshis: 1_000 });
    const beef = beefOf(tx);
    for (const bytes of [
      Uint8Array.from(tx.toBinary()),
      beef.subarray(0, beef.length - 5),
      Uint8Array.from([...beef, 0]),
      new Uint8Array(0),
    ]) {
      expect(await rejection(verifyBeef(bytes, chain.client.chainTracker))).toMatchObject({
        code: 'validation_failed',
        details: { field: 'transaction' },
      });
    }
  });

  it('leaves the bytes it is given as they were, a Buffer too (gRPC hands one over), so what is broadcast is what was verified', async () => {
    const payer = await minedCoin();
    const tx = await payment({ ...payer, to: newWallet().address, satoshis: 1_000 });
    const bytes = Buffer.from(tx.toBEEF());
    const before = Buffer.from(bytes);
    expect((await verifyBeef(bytes, chain.client.chainTracker)).txid).toBe(tx.id('hex'));
    expect(bytes.equals(before)).toBe(true);
  });

  it('answers validation_failed at once for a few bytes claiming billions of merkle paths, transactions, leaves, inputs or script bytes', async () => {
    const hex = (text: string) => Uint8Array.from(Buffer.from(text, 'hex'));
    const started = Date.now();
    for (const bytes of [
      hex('0100beef00feffffffff'),
      hex('0100beef00fffffffff0ffffff00'),
      hex('0200beef00fe00000010'),
      hex(`01010101${'11'.repeat(32)}0100beef00feffffffff`),
      hex('0100beef0101fffeffffff7f'),
      hex('0100beef010120feffffff7f'),
      hex('0100beef000101000000feffffff7f'),
      hex(`0100beef00010100000001${'00'.repeat(36)}feffffff7f`),
    ]) {
      expect(await rejection(verifyBeef(bytes, chain.client.chainTracker))).toMatchObject({
        code: 'validation_failed',
        details: { field: 'transaction' },
      });
    }
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it('answers validation_failed for an Atomic BEEF that does not hold the transaction it names', async () => {
    const payer = await minedCoin();
    const tx = await payment({ ...payer, to: newWallet().address, satoshis: 1_000 });
    const atomic = Uint8Array.from(tx.toAtomicBEEF());
    atomic.set(
      Array.from({ length: 32 }, () => 0x11),
      4,
    );
    expect(await rejection(verifyBeef(atomic, chain.client.chainTracker))).toMatchObject({
      code: 'validation_failed',
      details: { field: 'transaction' },
    });
  });
});
