import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createChainClient } from '@ctk/chain';
import { mineBlocks, startLocalChain } from '@ctk/chain/local';
import { configSchema as p2pConfigSchema, service as p2p } from '@ctk/p2p';
import { ContractsServiceDefinition } from '@ctk/proto/ctk/contracts/v1/contracts';
import { P2pServiceDefinition } from '@ctk/proto/ctk/p2p/v1/p2p';
import { loadConfig, startService } from '@ctk/shared';
import { createTestClient, createTestDatabase, TEST_DATA_DIR } from '@ctk/shared/testing';
import { runWallet } from '@ctk/wallet';
import { configSchema, service as contracts } from '../src/app.js';

async function database(name: string) {
  const url = await createTestDatabase(name);
  return { CTK_DATA_DIR: TEST_DATA_DIR, ...(url ? { DATABASE_URL: url } : {}) };
}

/**
 * Contracts in front of the real p2p on a local chain, each on its own database and a free port, with the
 * wallet command line (`ctk-wallet`) run in process for merchants and customers: what a merchant does to mint
 * a token, end to end, without a gateway.
 */
export async function startTokenStack() {
  const chain = await startLocalChain({ port: 0 });
  const base = { GRPC_PORT: '0', LOG_LEVEL: 'silent' };
  const chainEnv = { CHAIN_NETWORK: 'local', CHAIN_LOCAL_URL: chain.url, CHAIN_RETRIES: '1' };
  const p2pService = await startService(p2p, loadConfig(p2pConfigSchema, { ...base, ...chainEnv, ...(await database('p2p')) }));
  const p2pUrl = `127.0.0.1:${p2pService.port}`;
  const contractsService = await startService(
    contracts,
    loadConfig(configSchema, { ...base, ...chainEnv, ...(await database('contracts')), P2P_GRPC_URL: p2pUrl }),
  );
  const client = createTestClient(ContractsServiceDefinition, `127.0.0.1:${contractsService.port}`);
  const p2pClient = createTestClient(P2pServiceDefinition, p2pUrl);

  /** Runs `ctk-wallet` with a wallet file against this chain; throws with what it printed on failure. */
  async function walletCommand<T = Record<string, unknown>>(file: string, ...args: string[]): Promise<T> {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runWallet([...args, '--file', file, '--json'], { env: chainEnv, out: (l) => out.push(l), err: (l) => err.push(l) });
    if (code !== 0) throw new Error(err.join('\n'));
    return JSON.parse(out.join('\n')) as T;
  }

  /** A wallet made with `ctk-wallet create`, funded from the faucet unless `satoshis` is 0. */
  async function newWallet(satoshis = 1_000_000) {
    const file = join(mkdtempSync(join(tmpdir(), 'ctk-tokens-')), 'wallet.json');
    const created = await walletCommand<{ address: string; public_key: string; xpub: string }>(file, 'create');
    if (satoshis > 0) await walletCommand(file, 'faucet', String(satoshis));
    return { file, ...created };
  }

  /** A shop whose merchant's wallet (xpub and identity key) is registered with p2p, as onboarding does. */
  async function merchant(satoshis?: number) {
    const wallet = await newWallet(satoshis);
    const org = { id: randomUUID(), handle: `shop-${randomUUID().slice(0, 8)}` };
    await p2pClient.setWallet({ org, walletXpub: wallet.xpub, identityPublicKey: wallet.public_key });
    return { org, wallet };
  }

  return {
    client,
    p2p: p2pClient,
    chain: createChainClient({ network: 'local', localUrl: chain.url, retries: 0 }),
    chainUrl: chain.url,
    walletCommand,
    newWallet,
    merchant,
    mine: () => mineBlocks(chain.url, 1),
    async close() {
      client.close();
      p2pClient.close();
      await contractsService.close();
      await p2pService.close();
      await chain.close();
    },
  };
}

export type TokenStack = Awaited<ReturnType<typeof startTokenStack>>;
