import { P2PKH, PrivateKey, Transaction, Utils } from '@bsv/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mineBlocks } from '../src/local/index.js';
import { fundedWallet, newWallet, payment, rejection, startTestChain, type TestChain } from './support.js';

let chain: TestChain;
beforeAll(async () => {
  chain = await startTestChain();
});
afterAll(() => chain.close());

/** Every output the chain knows and who spends it: the UTXO set and more. */
function utxoSet(): string[] {
  const state = chain.running.chain.state;
  const txids = [...state.mempoolTxids(), ...state.blocks.flatMap((block) => block.txids)];
  return txids
    .flatMap((txid) =>
      state.transaction(txid)!.tx.outputs.map((_, vout) => {
        const coin = state.coin(txid, vout)!;
        return `${txid}:${vout}=${coin.satoshis}:${coin.spentBy ?? 'unspent'}`;
      }),
    )
    .sort();
}

describe('what the local chain refuses, as ARC would, and the client error for it', () => {
  it('refuses a double spend, naming the transaction that spent the output first', async () => {
    const payer = await fundedWallet(chain, 50_000);
    const first = await payment({ ...payer, to: newWallet().address, satoshis: 10_000 });
    const second = await payment({ ...payer, to: newWallet().address, satoshis: 20_000 });
    await chain.client.broadcast(first);

    const error = await rejection(chain.client.broadcast(second));
    expect(error.code).toBe('chain_rejected');
    expect(error.details).toMatchObject({
      arc_status: 200,
      tx_status: 'DOUBLE_SPEND_ATTEMPTED',
      competing_txs: [first.id('hex')],
      txid: second.id('hex'),
    });
    expect(error.message).toContain(first.id('hex'));

    await mineBlocks(chain.running.url);
    const third = await payment({ ...payer, to: newWallet().address, satoshis: 30_000 });
    expect((await rejection(chain.client.broadcast(third))).details).toMatchObject({
      tx_status: 'DOUBLE_SPEND_ATTEMPTED',
      competing_txs: [first.id('hex')],
    });
    expect(await chain.client.getStatus(second.id('hex'))).toMatchObject({ state: 'unknown' });
  });

  it('refuses a signature by the wrong key: the script fails in the interpreter (461)', async () => {
    const payer = await fundedWallet(chain, 50_000);
    const tx = await payment({ ...payer, to: newWallet().address, satoshis: 10_000, signer: PrivateKey.fromRandom() });
    const error = await rejection(chain.client.broadcast(tx));
    expect(error).toMatchObject({
      code: 'chain_rejected',
      details: { arc_status: 461, title: 'Malformed transaction', txid: tx.id('hex') },
    });
    expect(String(error.details!.extra_info)).toMatch(/^input 0: /);
  });

  it('refuses a signature over other outputs than the transaction has', async () => {
    const payer = await fundedWallet(chain, 50_000);
    const tx = await payment({ ...payer, to: newWallet().address, satoshis: 10_000 });
    tx.outputs[0]!.satoshis = 9_000;
    expect((await rejection(chain.client.broadcast(tx))).details).toMatchObject({ arc_status: 461 });
  });

  it('refuses outputs worth more than the inputs (465)', async () => {
    const payer = await fundedWallet(chain, 50_000);
    const tx = await payment({ ...payer, to: newWallet().address, satoshis: 60_000, fee: 0 });
    const error = await rejection(chain.client.broadcast(tx));
    expect(error).toMatchObject({ code: 'chain_rejected', details: { arc_status: 465, title: 'Fee too low' } });
    expect(error.details!.extra_info).toBe("outputs total 60000 satoshis, more than the inputs' 50000");
  });

  it('refuses a fee below the minimum rate (465)', async () => {
    const payer = await fundedWallet(chain, 50_000);
    const tx = await payment({ ...payer, to: newWallet().address, satoshis: 50_000, fee: 0 });
    expect((await rejection(chain.client.broadcast(tx))).details).toMatchObject({
      arc_status: 465,
      extra_info: expect.stringMatching(/^fee 0 satoshis is below the minimum 1/),
    });
  });

  it('refuses bytes that are not a transaction (463)', async () => {
    const error = await rejection(chain.client.broadcast('0100000001deadbeef'));
    expect(error).toMatchObject({ code: 'chain_rejected', details: { arc_status: 463, title: 'Malformed transaction' } });
    expect(error.message).toContain('not a raw, EF or BEEF transaction');
  });

  it('refuses a raw transaction whose parent it does not know (460), and its EF form (462)', async () => {
    const stranger = newWallet();
    const parent = new Transaction(1, [], [{ satoshis: 10_000, lockingScript: new P2PKH().lock(stranger.address) }]);
    const tx = await payment({ source: parent, vout: 0, key: stranger.key, to: newWallet().address, satoshis: 5_000 });
    expect((await rejection(chain.client.broadcast(tx.toHex()))).details).toMatchObject({
      arc_status: 460,
      title: 'Not extended format',
      extra_info: `parent transaction ${parent.id('hex')} not found`,
    });
    expect((await rejection(chain.client.broadcast(tx))).details).toMatchObject({ arc_status: 462, title: 'Invalid inputs' });
  });

  it('refuses a transaction locked until a later block while an input is not final', async () => {
    const payer = await fundedWallet(chain, 50_000);
    const tx = new Transaction();
    tx.addInput({
      sourceTransaction: payer.source,
      sourceOutputIndex: payer.vout,
      unlockingScriptTemplate: new P2PKH().unlock(payer.key),
      sequence: 0xfffffffe,
    });
    tx.addOutput({ lockingScript: new P2PKH().lock(newWallet().address), satoshis: 49_000 });
    tx.lockTime = chain.running.chain.state.height + 2;
    await tx.sign();
    expect((await rejection(chain.client.broadcast(tx))).details).toMatchObject({
      arc_status: 200,
      tx_status: 'REJECTED',
      detail: expect.stringMatching(/^non-final/),
    });

    await mineBlocks(chain.running.url);
    expect((await rejection(chain.client.broadcast(tx))).details).toMatchObject({ tx_status: 'REJECTED' });
    await mineBlocks(chain.running.url);
    expect((await chain.client.broadcast(tx)).state).toBe('seen');
  });

  it('refuses a BEEF whose merkle path does not lead to the block at its height (469)', async () => {
    const payer = await fundedWallet(chain, 50_000);
    await mineBlocks(chain.running.url);
    const path = (await chain.client.getStatus(payer.source.id('hex'))).merklePath!;
    path.blockHeight -= 1;
    payer.source.merklePath = path;
    const tx = await payment({ ...payer, to: newWallet().address, satoshis: 10_000 });
    expect((await rejection(chain.client.broadcast(tx.toBEEF()))).details).toMatchObject({ arc_status: 469 });
  });

  it('refuses an output paying more satoshis than there are (464), the UTXO set unchanged', async () => {
    const payer = await fundedWallet(chain, 50_000);
    const tx = await payment({ ...payer, to: newWallet().address, satoshis: 10_000 });
    const raw = tx.toHex();
    const value = (satoshis: number) => Utils.toHex(Utils.toArray(satoshis.toString(16).padStart(16, '0'), 'hex').reverse());
    const overMax = raw.replace(value(10_000), value(21_000_000 * 100_000_000 + 1));
    expect(overMax).not.toBe(raw);
    const before = utxoSet();
    expect((await rejection(chain.client.broadcast(overMax))).details).toMatchObject({
      arc_status: 464,
      title: 'Invalid outputs',
      extra_info: expect.stringMatching(/^output 0 pays 2100000000000001 satoshis/),
    });
    expect(utxoSet()).toEqual(before);
  });

  it('takes a BEEF whole or not at all: a refused subject leaves its unmined ancestors out and the UTXO set as it was', async () => {
    const payer = await fundedWallet(chain, 40_000);
    const middle = newWallet();
    const ancestor = await payment({ ...payer, to: middle.address, satoshis: 20_000 });
    const overspend = await payment({ source: ancestor, vout: 0, key: middle.key, to: newWallet().address, satoshis: 30_000, fee: 0 });
    const before = utxoSet();
    expect((await rejection(chain.client.broadcast(overspend.toBEEF()))).details).toMatchObject({
      arc_status: 465,
      txid: overspend.id('hex'),
    });
    expect(utxoSet()).toEqual(before);
    expect(await chain.client.getStatus(ancestor.id('hex'))).toMatchObject({ state: 'unknown' });
    expect(await chain.client.listUnspent(middle.address)).toEqual([]);
    // Its outputs were never spendable, and the coin it spent is free again.
    expect((await chain.client.broadcast(ancestor)).state).toBe('seen');
  });

  it('refuses each of a payment spending a mempool parent and a rival of that parent, nothing changed by the rival', async () => {
    const payer = await fundedWallet(chain, 40_000);
    const middle = newWallet();
    const parent = await payment({ ...payer, to: middle.address, satoshis: 20_000 });
    await chain.client.broadcast(parent);
    const child = await payment({ source: parent, vout: 0, key: middle.key, to: newWallet().address, satoshis: 10_000 });
    await chain.client.broadcast(child);
    const rival = await payment({ ...payer, to: newWallet().address, satoshis: 30_000 });
    const before = utxoSet();
    expect((await rejection(chain.client.broadcast(rival.toBEEF()))).details).toMatchObject({
      tx_status: 'DOUBLE_SPEND_ATTEMPTED',
      competing_txs: [parent.id('hex')],
    });
    expect(utxoSet()).toEqual(before);
    expect(await chain.client.getStatus(child.id('hex'))).toMatchObject({ state: 'seen' });
  });

  it('refuses lookups of what is not an address or a txid before asking the chain', async () => {
    expect(await rejection(chain.client.listUnspent('not-an-address'))).toMatchObject({ code: 'validation_failed' });
    expect(await rejection(chain.client.getStatus('XYZ'))).toMatchObject({ code: 'validation_failed' });
  });
});
