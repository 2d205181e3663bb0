import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LockingScript, P2PKH, PrivateKey, SatoshisPerKilobyte, Transaction } from '@bsv/sdk';
import { configSchema as booksConfigSchema, service as books } from '@ctk/books';
import { createChainClient } from '@ctk/chain';
import { advanceClock, mineBlocks, requestFaucet, startLocalChain } from '@ctk/chain/local';
import { configSchema as p2pConfigSchema, service as p2p } from '@ctk/p2p';
import { configSchema as posConfigSchema, service as pos } from '@ctk/pos';
import { BooksServiceDefinition } from '@ctk/proto/ctk/books/v1/books';
import { ContractsServiceDefinition } from '@ctk/proto/ctk/contracts/v1/contracts';
import { P2pServiceDefinition } from '@ctk/proto/ctk/p2p/v1/p2p';
import { PosServiceDefinition } from '@ctk/proto/ctk/pos/v1/pos';
import { inProcessTransport, loadConfig, startService } from '@ctk/shared';
import { createTestClient, createTestDatabase, TEST_DATA_DIR } from '@ctk/shared/testing';
import { runWallet } from '@ctk/wallet';
import { configSchema, service as contracts } from '../src/app.js';

async function database(name: string) {
  const url = await createTestDatabase(name);
  return { CTK_DATA_DIR: TEST_DATA_DIR, ...(url ? { DATABASE_URL: url } : {}) };
}

export const PUBLIC_URL = 'https://pay.example.com';

/** How long a stack may take to start: four services migrating their databases, slow on PGlite on a busy machine. */
export const STACK_START_MS = 180_000;

/**
 * Contracts in front of the real p2p on a local chain, pos and books (credits are sold and redeemed in pos's
 * orders, whose events books posts), each on its own database and a free port, with the wallet command line
 * (`ctk-wallet`) run in process for merchants and customers: what a merchant does with a token, end to end,
 * without a gateway. The time-locked refunds' watcher is off unless `watchIntervalMs` says otherwise.
 */
export async function startTokenStack(options: { watchIntervalMs?: number } = {}) {
  const chain = await startLocalChain({ port: 0 });
  const transport = inProcessTransport();
  const base = { GRPC_PORT: '0', LOG_LEVEL: 'silent' };
  const chainEnv = { CHAIN_NETWORK: 'local', CHAIN_LOCAL_URL: chain.url, CHAIN_RETRIES: '1' };
  const p2pService = await startService(p2p, loadConfig(p2pConfigSchema, { ...base, ...chainEnv, ...(await database('p2p')) }), {
    transport,
  });
  const p2pUrl = `127.0.0.1:${p2pService.port}`;
  const booksService = await startService(books, loadConfig(booksConfigSchema, { ...base, ...(await database('books')) }), { transport });
  const booksUrl = `127.0.0.1:${booksService.port}`;
  const posService = await startService(
    pos,
    loadConfig(posConfigSchema, {
      ...base,
      ...(await database('pos')),
      BOOKS_GRPC_URL: booksUrl,
      P2P_GRPC_URL: p2pUrl,
      POS_WATCH_INTERVAL_MS: '200',
      POS_FIXED_RATES: 'USD=100',
    }),
    { transport },
  );
  const posUrl = `127.0.0.1:${posService.port}`;
  // The contracts service's clock moves with the chain's (`advance`): a time-locked refund comes due in a test.
  let offsetMs = 0;
  const contractsService = await startService(
    contracts,
    loadConfig(configSchema, {
      ...base,
      ...chainEnv,
      ...(await database('contracts')),
      P2P_GRPC_URL: p2pUrl,
      POS_GRPC_URL: posUrl,
      CONTRACTS_WATCH_INTERVAL_MS: String(options.watchIntervalMs ?? 0),
    }),
    { transport, now: () => new Date(Date.now() + offsetMs) },
  );
  const client = createTestClient(ContractsServiceDefinition, `127.0.0.1:${contractsService.port}`);
  const p2pClient = createTestClient(P2pServiceDefinition, p2pUrl);
  const posClient = createTestClient(PosServiceDefinition, posUrl);
  const booksClient = createTestClient(BooksServiceDefinition, booksUrl);

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

  /**
   * A shop whose merchant's wallet (xpub and identity key) is registered with p2p, as onboarding does, and
   * its sales tax with books when a jurisdiction is given.
   */
  async function merchant(satoshis?: number, jurisdiction?: string) {
    const wallet = await newWallet(satoshis);
    const org = { id: randomUUID(), handle: `shop-${randomUUID().slice(0, 8)}` };
    await p2pClient.setWallet({ org, walletXpub: wallet.xpub, identityPublicKey: wallet.public_key });
    if (jurisdiction) await booksClient.setTaxSettings({ org, jurisdiction, pricesIncludeTax: false });
    return { org, wallet };
  }

  /** Pays a pos order in full by BIP270 from a fresh faucet coin, as a customer's wallet would. */
  async function payOrder(orderNumber: string) {
    const request = await posClient.getPaymentRequest({ orderNumber, publicUrl: PUBLIC_URL });
    const key = PrivateKey.fromRandom();
    const funded = await requestFaucet(chain.url, key.toAddress('testnet'), 1_000_000);
    const source = Transaction.fromHex(funded.raw_tx);
    const tx = new Transaction();
    tx.addInput({ sourceTransaction: source, sourceOutputIndex: funded.vout, unlockingScriptTemplate: new P2PKH().unlock(key) });
    for (const output of request.outputs)
      tx.addOutput({ lockingScript: LockingScript.fromHex(output.script), satoshis: Number(output.amount) });
    tx.addOutput({ lockingScript: new P2PKH().lock(key.toAddress('testnet')), change: true });
    await tx.fee(new SatoshisPerKilobyte(100));
    await tx.sign();
    await posClient.payOrder({ orderNumber, transaction: tx.toHex(), merchantData: request.merchantData }, { timeoutMs: 30_000 });
  }

  return {
    client,
    p2p: p2pClient,
    pos: posClient,
    books: booksClient,
    payOrder,
    chain: createChainClient({ network: 'local', localUrl: chain.url, retries: 0 }),
    chainUrl: chain.url,
    walletCommand,
    newWallet,
    merchant,
    mine: () => mineBlocks(chain.url, 1),
    /** The contracts service's clock. */
    now: () => new Date(Date.now() + offsetMs),
    /** Moves the chain's clock and the contracts service's this many seconds on, and mines `blocks` blocks after. */
    async advance(seconds: number, blocks = 11) {
      offsetMs += seconds * 1000;
      await advanceClock(chain.url, seconds);
      await mineBlocks(chain.url, blocks);
    },
    async close() {
      for (const each of [client, p2pClient, posClient, booksClient]) each.close();
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
