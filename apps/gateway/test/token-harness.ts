import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createChainClient } from '@ctk/chain';
import { startLocalChain } from '@ctk/chain/local';
import { configSchema as booksConfigSchema, service as books } from '@ctk/books';
import { configSchema as contractsConfigSchema, service as contracts } from '@ctk/contracts';
import { configSchema as p2pConfigSchema, service as p2p } from '@ctk/p2p';
import { configSchema as posConfigSchema, service as pos } from '@ctk/pos';
import { inProcessTransport, loadConfig, startService } from '@ctk/shared';
import { createTestDatabase, TEST_DATA_DIR } from '@ctk/shared/testing';
import { runWallet } from '@ctk/wallet';
import { bearer, onboard, startTestGateway, type Gateway, type Onboarded } from './harness.js';
import { SERVICES_DOWN, uniqueName } from './support.js';

async function database(prefix: string) {
  const url = await createTestDatabase(prefix);
  return { CTK_DATA_DIR: TEST_DATA_DIR, ...(url ? { DATABASE_URL: url } : {}) };
}

/**
 * Tokens end to end through HTTP: a local chain, p2p on it, pos and books (credits are sold and redeemed in pos
 * orders, which books posts), contracts calling p2p and pos, the gateway in front of them, each on its own
 * database; merchants and customers hold `ctk-wallet` files, run in process.
 */
export async function startTokenStack() {
  const chain = await startLocalChain({ port: 0 });
  const transport = inProcessTransport();
  const env = { GRPC_PORT: '0', LOG_LEVEL: 'silent' };
  const chainEnv = { CHAIN_NETWORK: 'local', CHAIN_LOCAL_URL: chain.url, CHAIN_RETRIES: '1' };
  const p2pService = await startService(p2p, loadConfig(p2pConfigSchema, { ...env, ...chainEnv, ...(await database('p2p')) }), {
    transport,
  });
  const P2P_GRPC_URL = `127.0.0.1:${p2pService.port}`;
  const booksService = await startService(books, loadConfig(booksConfigSchema, { ...env, ...(await database('books')) }), { transport });
  const BOOKS_GRPC_URL = `127.0.0.1:${booksService.port}`;
  const posService = await startService(
    pos,
    loadConfig(posConfigSchema, {
      ...env,
      BOOKS_GRPC_URL,
      P2P_GRPC_URL,
      POS_WATCH_INTERVAL_MS: '0',
      POS_FIXED_RATES: 'USD=100',
      ...(await database('pos')),
    }),
    { transport },
  );
  const POS_GRPC_URL = `127.0.0.1:${posService.port}`;
  const contractsService = await startService(
    contracts,
    loadConfig(contractsConfigSchema, { ...env, ...chainEnv, P2P_GRPC_URL, POS_GRPC_URL, ...(await database('contracts')) }),
  );
  const gateway: Gateway = await startTestGateway({
    ...SERVICES_DOWN,
    P2P_GRPC_URL,
    BOOKS_GRPC_URL,
    POS_GRPC_URL,
    CONTRACTS_GRPC_URL: `127.0.0.1:${contractsService.port}`,
  });

  /** Runs `ctk-wallet <args> --file <file> --json` on this chain; throws what it printed on failure. */
  async function walletCommand<T = Record<string, unknown>>(file: string, ...args: string[]): Promise<T> {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runWallet([...args, '--file', file, '--json'], { env: chainEnv, out: (l) => out.push(l), err: (l) => err.push(l) });
    if (code !== 0) throw new Error(err.join('\n'));
    return JSON.parse(out.join('\n')) as T;
  }

  /** A wallet file made by `ctk-wallet create`, funded from the local chain's faucet unless `satoshis` is 0. */
  async function newWallet(satoshis = 1_000_000) {
    const file = join(mkdtempSync(join(tmpdir(), 'ctk-tokens-')), 'wallet.json');
    const created = await walletCommand<{ address: string; public_key: string; xpub: string }>(file, 'create');
    if (satoshis > 0) await walletCommand(file, 'faucet', String(satoshis));
    return { file, ...created };
  }

  /** A shop onboarded by its owner, its wallet's xpub and identity key registered (PATCH, as the back office does). */
  async function merchant(label: string, satoshis?: number): Promise<Onboarded & { wallet: Awaited<ReturnType<typeof newWallet>> }> {
    const owner = await onboard(gateway, uniqueName(label));
    const wallet = await newWallet(satoshis);
    const patched = await gateway.app.inject({
      method: 'PATCH',
      url: `/api/v1/organizations/${owner.handle}`,
      headers: bearer(owner.key),
      payload: { wallet_xpub: wallet.xpub, identity_public_key: wallet.public_key },
    });
    if (patched.statusCode !== 200) throw new Error(`registering the wallet failed: ${patched.body}`);
    return { ...owner, wallet };
  }

  return {
    gateway,
    chain: createChainClient({ network: 'local', localUrl: chain.url, retries: 0 }),
    chainUrl: chain.url,
    walletCommand,
    newWallet,
    merchant,
    async close() {
      await gateway.close();
      await contractsService.close();
      await posService.close();
      await booksService.close();
      await p2pService.close();
      await transport.close();
      await chain.close();
    },
  };
}

export type TokenStack = Awaited<ReturnType<typeof startTokenStack>>;
