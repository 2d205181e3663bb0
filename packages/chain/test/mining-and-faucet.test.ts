import { afterEach, describe, expect, it } from 'vitest';
import { requestFaucet } from '../src/local/index.js';
import { newWallet, startTestChain, type TestChain } from './support.js';

let chain: TestChain | undefined;
afterEach(async () => {
  await chain?.close();
  chain = undefined;
});

describe('mining on an interval and the faucet under load', () => {
  it('mines a waiting transaction on the interval, and no empty blocks', async () => {
    chain = await startTestChain({ mineIntervalMs: 50 });
    const height = chain.running.chain.state.height;
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(chain.running.chain.state.height).toBe(height);

    const paid = await requestFaucet(chain.running.url, newWallet().address, 1_000);
    expect(await chain.client.waitForStatus(paid.txid, 'mined', { intervalMs: 20, timeoutMs: 5_000 })).toMatchObject({
      state: 'mined',
      blockHeight: height + 1,
    });
  });

  it('pays concurrent faucet requests from distinct coins', { tags: ['concurrency'] }, async () => {
    chain = await startTestChain();
    const wallets = Array.from({ length: 6 }, () => newWallet());
    const paid = await Promise.all(wallets.map((wallet, i) => requestFaucet(chain!.running.url, wallet.address, 1_000 + i)));
    expect(new Set(paid.map((payment) => payment.txid)).size).toBe(6);
    for (const [i, wallet] of wallets.entries()) {
      expect(await chain.client.listUnspent(wallet.address)).toEqual([
        { txid: paid[i]!.txid, vout: 0, satoshis: 1_000 + i, height: undefined },
      ]);
    }
  });
});
