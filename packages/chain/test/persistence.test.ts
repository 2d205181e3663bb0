import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mineBlocks } from '../src/local/index.js';
import { fundedWallet, newWallet, payment, startTestChain } from './support.js';

let dataDir: string;
beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'ctk-chain-'));
});
afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

describe('the local chain in a data directory', () => {
  it('keeps blocks, the mempool, balances and the faucet key across a restart', async () => {
    const first = await startTestChain({ dataDir });
    const payer = await fundedWallet(first, 80_000);
    const payee = newWallet();
    const mined = await payment({ ...payer, to: payee.address, satoshis: 30_000 });
    await first.client.broadcast(mined);
    await mineBlocks(first.running.url);
    const pending = await payment({ source: mined, vout: 1, key: payer.key, to: payee.address, satoshis: 10_000 });
    await first.client.broadcast(pending);
    const before = {
      info: await first.client.chainInfo(),
      minedStatus: await first.client.getStatus(mined.id('hex')),
      unspent: await first.client.listUnspent(payee.address),
      faucet: first.running.chain.faucetAddress,
    };
    const key = readFileSync(join(dataDir, 'chain', 'faucet.wif'), 'utf8');
    await first.close();

    const second = await startTestChain({ dataDir });
    try {
      expect(await second.client.chainInfo()).toEqual(before.info);
      expect(second.running.chain.faucetAddress).toBe(before.faucet);
      expect(readFileSync(join(dataDir, 'chain', 'faucet.wif'), 'utf8')).toBe(key);
      expect((await second.client.getStatus(mined.id('hex'))).merklePath!.toHex()).toBe(before.minedStatus.merklePath!.toHex());
      expect(await second.client.getStatus(pending.id('hex'))).toMatchObject({ state: 'seen' });
      expect(await second.client.listUnspent(payee.address)).toEqual(before.unspent);

      const doubleSpend = await payment({ source: mined, vout: 1, key: payer.key, to: newWallet().address, satoshis: 5_000 });
      await expect(second.client.broadcast(doubleSpend)).rejects.toMatchObject({
        code: 'chain_rejected',
        details: { tx_status: 'DOUBLE_SPEND_ATTEMPTED' },
      });
      await mineBlocks(second.running.url);
      expect(await second.client.getStatus(pending.id('hex'))).toMatchObject({ state: 'mined', blockHeight: before.info.height + 1 });
    } finally {
      await second.close();
    }
  });

  it('keeps nothing of a refused BEEF: after a restart the mempool is what it was', async () => {
    const first = await startTestChain({ dataDir });
    const payer = await fundedWallet(first, 40_000);
    const middle = newWallet();
    const ancestor = await payment({ ...payer, to: middle.address, satoshis: 20_000 });
    const overspend = await payment({ source: ancestor, vout: 0, key: middle.key, to: newWallet().address, satoshis: 30_000, fee: 0 });
    await expect(first.client.broadcast(overspend.toBEEF())).rejects.toMatchObject({ details: { arc_status: 465 } });
    const mempool = first.running.chain.state.mempoolTxids();
    await first.close();

    const second = await startTestChain({ dataDir });
    try {
      expect(second.running.chain.state.mempoolTxids()).toEqual(mempool);
      expect(await second.client.getStatus(ancestor.id('hex'))).toMatchObject({ state: 'unknown' });
    } finally {
      await second.close();
    }
  });

  it('starts afresh without a data directory', async () => {
    const chain = await startTestChain();
    try {
      expect((await chain.client.chainInfo()).height).toBe(1);
    } finally {
      await chain.close();
    }
  });
});
