import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mineBlocks, requestStablecoinFaucet } from '../src/local/index.js';
import { newWallet, startTestChain } from './support.js';
import { getJson, type Balance, type Txo } from './token-support.js';

let dataDir: string;
beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'ctk-chain-tokens-'));
});
afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

type Stablecoin = { token_id: string; cosigner_public_key: string };

describe('tokens across a restart of the local chain', () => {
  it('keeps the stablecoin, its cosigner key and every balance: the index is rebuilt from the blocks and the mempool', async () => {
    const first = await startTestChain({ dataDir });
    const holder = newWallet();
    const mined = await requestStablecoinFaucet(first.running.url, holder.address, 700n);
    await mineBlocks(first.running.url);
    const pending = await requestStablecoinFaucet(first.running.url, holder.address, 50n);
    const read = async (chain: typeof first) => ({
      stablecoin: (await getJson<Stablecoin>(chain, '/v1/bsv/local/stablecoin')).body,
      balance: (await getJson<Balance[]>(chain, `/api/bsv20/${holder.address}/balance`)).body,
      treasury: (await getJson<Balance[]>(chain, `/api/bsv20/${chain.running.chain.treasuryAddress}/balance`)).body,
      minedOutputs: (await getJson<Txo[]>(chain, `/api/bsv20/txid/${mined.txid}`)).body,
      pendingOutputs: (await getJson<Txo[]>(chain, `/api/bsv20/txid/${pending.txid}`)).body,
    });
    const before = await read(first);
    expect(before.balance[0]!.all).toEqual({ confirmed: '700', pending: '50' });
    await first.close();
    for (const key of ['treasury', 'cosigner']) expect(statSync(join(dataDir, 'chain', `${key}.wif`)).mode & 0o777).toBe(0o600);

    const second = await startTestChain({ dataDir });
    try {
      expect(await read(second)).toEqual(before);
    } finally {
      await second.close();
    }
  });

  it('deploys the stablecoin into the mempool when the store has none of its own (a store from before it)', async () => {
    const first = await startTestChain({ dataDir });
    const old = (await getJson<Stablecoin>(first, '/v1/bsv/local/stablecoin')).body;
    await first.close();
    rmSync(join(dataDir, 'chain', 'treasury.wif'));
    rmSync(join(dataDir, 'chain', 'cosigner.wif'));

    const second = await startTestChain({ dataDir });
    try {
      const stablecoin = (await getJson<Stablecoin>(second, '/v1/bsv/local/stablecoin')).body;
      expect(stablecoin.token_id).not.toBe(old.token_id);
      expect(stablecoin.cosigner_public_key).not.toBe(old.cosigner_public_key);
      expect(second.running.chain.state.mempoolTxids()).toEqual([stablecoin.token_id.slice(0, 64)]);
      const holder = newWallet();
      await requestStablecoinFaucet(second.running.url, holder.address, 10n);
      await mineBlocks(second.running.url);
      expect((await getJson<Balance[]>(second, `/api/bsv20/${holder.address}/balance`)).body).toEqual([
        expect.objectContaining({ id: stablecoin.token_id, all: { confirmed: '10', pending: '0' } }),
      ]);
    } finally {
      await second.close();
    }
  });
});
