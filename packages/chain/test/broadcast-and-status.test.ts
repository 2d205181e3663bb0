import { MerklePath } from '@bsv/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mineBlocks, requestFaucet } from '../src/local/index.js';
import { HISTORIES_AT_ONCE } from '../src/index.js';
import { fundedWallet, newWallet, payment, rejection, startTestChain, type TestChain } from './support.js';

let chain: TestChain;
beforeAll(async () => {
  chain = await startTestChain();
});
afterAll(() => chain.close());

describe('the chain client against the local chain', () => {
  it('sees a faucet payment in the address unspent outputs and history, unconfirmed until mined', async () => {
    const wallet = newWallet();
    const paid = await requestFaucet(chain.running.url, wallet.address, 50_000);
    expect(await chain.client.listUnspent(wallet.address)).toEqual([{ txid: paid.txid, vout: 0, satoshis: 50_000, height: undefined }]);
    expect(await chain.client.history(wallet.address)).toEqual([{ txid: paid.txid, height: undefined }]);

    const { height } = await mineBlocks(chain.running.url);
    expect(await chain.client.listUnspent(wallet.address)).toEqual([{ txid: paid.txid, vout: 0, satoshis: 50_000, height }]);
  });

  it('reads the histories of several addresses in one request, each as its own history reads', async () => {
    const [mined, pending, empty] = [newWallet(), newWallet(), newWallet()];
    const first = await requestFaucet(chain.running.url, mined.address, 10_000);
    const { height } = await mineBlocks(chain.running.url);
    const second = await requestFaucet(chain.running.url, pending.address, 20_000);
    const histories = await chain.client.histories([mined.address, pending.address, empty.address, mined.address]);
    expect(histories).toEqual(
      new Map([
        [mined.address, [{ txid: first.txid, height }]],
        [pending.address, [{ txid: second.txid, height: undefined }]],
        [empty.address, []],
      ]),
    );
    for (const [address, entries] of histories) expect(await chain.client.history(address)).toEqual(entries);
  });

  it('refuses more addresses than one request takes, and what is not an address, before asking', async () => {
    const addresses = Array.from({ length: HISTORIES_AT_ONCE + 1 }, () => newWallet().address);
    expect(await rejection(chain.client.histories(addresses))).toMatchObject({ code: 'validation_failed' });
    expect(await rejection(chain.client.histories([newWallet().address, 'not-an-address\u0000']))).toMatchObject({
      code: 'validation_failed',
    });
  });

  it('accepts a signed P2PKH payment, which goes from seen to mined with a merkle path that verifies', async () => {
    const payer = await fundedWallet(chain, 100_000);
    const payee = newWallet();
    const tx = await payment({ ...payer, to: payee.address, satoshis: 30_000 });
    const txid = tx.id('hex');

    const broadcast = await chain.client.broadcast(tx);
    expect(broadcast).toMatchObject({ txid, state: 'seen', arcStatus: 'SEEN_ON_NETWORK' });
    expect(await chain.client.getStatus(txid)).toMatchObject({ txid, state: 'seen' });
    expect(await chain.client.listUnspent(payee.address)).toEqual([{ txid, vout: 0, satoshis: 30_000, height: undefined }]);
    expect((await chain.client.history(payer.address)).map((entry) => entry.txid)).toEqual([payer.source.id('hex'), txid]);

    const { height, blocks } = await mineBlocks(chain.running.url);
    const mined = await chain.client.getStatus(txid);
    expect(mined).toMatchObject({ txid, state: 'mined', arcStatus: 'MINED', blockHeight: height, blockHash: blocks[0]!.hash });
    expect(mined.merklePath).toBeInstanceOf(MerklePath);
    expect(await chain.client.verifyMerkleProof(txid, mined.merklePath!)).toBe(true);
    expect(await chain.client.verifyMerkleProof(txid, mined.merklePath!.toHex())).toBe(true);

    const header = await chain.client.blockHeader(height);
    expect(mined.merklePath!.computeRoot(txid)).toBe(header!.merkleRoot);
    expect(await chain.client.blockHeader(blocks[0]!.hash)).toEqual(header);
  });

  it('looks a transaction up with its raw bytes, confirmations and the merkle path from the TSC proof', async () => {
    const payer = await fundedWallet(chain, 20_000);
    const tx = await payment({ ...payer, to: newWallet().address, satoshis: 5_000 });
    await chain.client.broadcast(tx);
    const txid = tx.id('hex');
    expect(await chain.client.getTransaction(txid)).toMatchObject({
      txid,
      rawHex: tx.toHex(),
      status: { state: 'seen', confirmations: 0 },
    });

    await mineBlocks(chain.running.url, 3);
    const found = await chain.client.getTransaction(txid);
    expect(found!.tx.id('hex')).toBe(txid);
    expect(found!.status).toMatchObject({ state: 'mined', confirmations: 3 });
    expect(await chain.client.verifyMerkleProof(txid, found!.status.merklePath!)).toBe(true);
    expect(found!.status.merklePath!.toHex()).toBe((await chain.client.getStatus(txid)).merklePath!.toHex());
  });

  it('proves a transaction alone in its block (a coinbase with nothing else mined), whose txid is the merkle root', async () => {
    await mineBlocks(chain.running.url); // whatever waits in the mempool
    const { height } = await mineBlocks(chain.running.url);
    const block = (await (await fetch(`${chain.running.wocUrl}/block/height/${height}`)).json()) as { tx: string[]; merkleroot: string };
    expect(block.tx).toHaveLength(1);
    const coinbase = block.tx[0]!;
    const found = await chain.client.getTransaction(coinbase);
    expect(found!.status).toMatchObject({ state: 'mined', confirmations: 1 });
    expect(found!.status.merklePath!.computeRoot(coinbase)).toBe(block.merkleroot);
    expect(await chain.client.verifyMerkleProof(coinbase, found!.status.merklePath!)).toBe(true);
  });

  it('refuses a merkle path for another transaction or another block', async () => {
    const payer = await fundedWallet(chain, 20_000);
    const tx = await payment({ ...payer, to: newWallet().address, satoshis: 5_000 });
    await chain.client.broadcast(tx);
    await mineBlocks(chain.running.url);
    const path = (await chain.client.getStatus(tx.id('hex'))).merklePath!;

    expect(await chain.client.verifyMerkleProof(payer.source.id('hex'), path)).toBe(false);
    const elsewhere = MerklePath.fromHex(path.toHex());
    elsewhere.blockHeight -= 1;
    expect(await chain.client.verifyMerkleProof(tx.id('hex'), elsewhere)).toBe(false);
  });

  it('answers a second broadcast of the same transaction with its status', async () => {
    const payer = await fundedWallet(chain, 20_000);
    const tx = await payment({ ...payer, to: newWallet().address, satoshis: 5_000 });
    await chain.client.broadcast(tx);
    expect(await chain.client.broadcast(tx.toHex())).toMatchObject({ txid: tx.id('hex'), state: 'seen' });
    await mineBlocks(chain.running.url);
    expect(await chain.client.broadcast(tx)).toMatchObject({ txid: tx.id('hex'), state: 'mined' });
  });

  it('broadcasts raw, EF and BEEF, BEEF with an unbroadcast parent', async () => {
    const payer = await fundedWallet(chain, 100_000);
    await mineBlocks(chain.running.url);
    payer.source.merklePath = (await chain.client.getStatus(payer.source.id('hex'))).merklePath;

    const second = newWallet();
    const parent = await payment({ ...payer, to: second.address, satoshis: 60_000 });
    const child = await payment({ source: parent, vout: 0, key: second.key, to: newWallet().address, satoshis: 10_000 });
    const beef = child.toBEEF();
    expect((await chain.client.broadcast(beef)).txid).toBe(child.id('hex'));
    expect((await chain.client.getStatus(parent.id('hex'))).state).toBe('seen');

    const ef = await payment({ source: parent, vout: 1, key: payer.key, to: newWallet().address, satoshis: 1_000 });
    expect((await chain.client.broadcast(ef.toHexEF())).state).toBe('seen');
    const raw = await payment({ source: child, vout: 1, key: second.key, to: newWallet().address, satoshis: 1_000 });
    expect((await chain.client.broadcast(raw.toBinary())).state).toBe('seen');
  });

  it('reports the chain tip and says unknown for a transaction it never saw', async () => {
    const info = await chain.client.chainInfo();
    expect(info).toMatchObject({
      network: 'local',
      height: chain.running.chain.state.height,
      bestBlockHash: chain.running.chain.state.tip!.hash,
    });
    const unknown = 'ab'.repeat(32);
    expect(await chain.client.getStatus(unknown)).toEqual({ txid: unknown, state: 'unknown' });
    expect(await chain.client.getTransaction(unknown)).toBeNull();
    expect(await chain.client.blockHeader(info.height + 1)).toBeNull();
  });

  it('waits for a transaction to be mined', async () => {
    const payer = await fundedWallet(chain, 20_000);
    const tx = await payment({ ...payer, to: newWallet().address, satoshis: 5_000 });
    await chain.client.broadcast(tx);
    const waiting = chain.client.waitForStatus(tx.id('hex'), 'mined', { intervalMs: 20, timeoutMs: 5_000 });
    setTimeout(() => void mineBlocks(chain.running.url), 100);
    expect(await waiting).toMatchObject({ state: 'mined' });
  });
});
