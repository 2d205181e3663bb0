import type { KeyObject } from 'node:crypto';
import { createConnection, createServer, type Socket } from 'node:net';
import { HD, LockingScript, P2PKH, PrivateKey, Transaction } from '@bsv/sdk';
import { configSchema as booksConfigSchema, service as books } from '@ctk/books';
import { configSchema as commerceConfigSchema, service as commerce } from '@ctk/commerce';
import { mineBlocks, requestFaucet, startLocalChain } from '@ctk/chain/local';
import { configSchema as p2pConfigSchema, service as p2p } from '@ctk/p2p';
import { buildPos, configSchema as posConfigSchema, service as pos } from '@ctk/pos';
import { inProcessTransport, loadConfig, startService, type EventTransport } from '@ctk/shared';
import { createTestDatabase, startBuiltService, TEST_DATA_DIR } from '@ctk/shared/testing';
import { bearer, onboard, startTestGateway, type Onboarded, type Gateway } from './harness.js';
import { SERVICES_DOWN, uniqueName } from './support.js';

async function database(prefix: string) {
  const url = await createTestDatabase(prefix);
  return { CTK_DATA_DIR: TEST_DATA_DIR, ...(url ? { DATABASE_URL: url } : {}) };
}

/** Open order event streams one address may hold in these tests (a low limit, so a test can reach it). */
export const EVENT_STREAMS_PER_ADDRESS = 3;

/**
 * Orders end to end in one process: a local chain, books and p2p, pos calling both (its watcher off:
 * the tests pay by BIP270), and the gateway in front of the three, each on its own database. With
 * `commerce`, the commerce service too, calling pos (its catalog read from pos every time).
 * `advance` moves pos's and commerce's clock (expiry) without waiting. `p2pEnv` adds to p2p's configuration.
 */
export async function startOrderStack(
  options: { commerce?: boolean; gatewayEnv?: Record<string, string>; p2pEnv?: Record<string, string> } = {},
) {
  const chain = await startLocalChain({ port: 0 });
  const transport = inProcessTransport();
  const env = { GRPC_PORT: '0', LOG_LEVEL: 'silent' };
  const chainEnv = { CHAIN_NETWORK: 'local', CHAIN_LOCAL_URL: chain.url, CHAIN_RETRIES: '1' };
  const booksService = await startService(books, loadConfig(booksConfigSchema, { ...env, ...(await database('books')) }), { transport });
  const p2pService = await startService(
    p2p,
    loadConfig(p2pConfigSchema, { ...env, ...chainEnv, ...options.p2pEnv, ...(await database('p2p')) }),
    {
      transport,
    },
  );
  const addresses = { BOOKS_GRPC_URL: `127.0.0.1:${booksService.port}`, P2P_GRPC_URL: `127.0.0.1:${p2pService.port}` };
  let offsetMs = 0;
  const posService = await startBuiltService(
    pos,
    buildPos,
    loadConfig(posConfigSchema, {
      ...env,
      ...addresses,
      POS_WATCH_INTERVAL_MS: '0',
      POS_FIXED_RATES: 'USD=100',
      ...(await database('pos')),
    }),
    { transport, now: () => new Date(Date.now() + offsetMs) },
  );
  const posUrl = `127.0.0.1:${posService.port}`;
  // Commerce reaches pos through a proxy a test can cut (pos down for commerce, up for everyone else).
  const posLink = await startCuttableLink(posService.port);
  // Commerce's deliveries can be held back (holdBackCommerce), as a broker slow to deliver would.
  let commerceGate: Promise<void> | undefined;
  const commerceTransport: EventTransport = {
    ...transport,
    consume: (durable, handler) =>
      transport.consume(durable, async (message) => {
        await commerceGate;
        return handler(message);
      }),
  };
  const commerceService = options.commerce
    ? await startService(
        commerce,
        loadConfig(commerceConfigSchema, {
          ...env,
          ...chainEnv,
          P2P_GRPC_URL: addresses.P2P_GRPC_URL,
          POS_GRPC_URL: `127.0.0.1:${posLink.port}`,
          COMMERCE_CATALOG_CACHE_MS: '0',
          ...(await database('commerce')),
        }),
        // Provider payments post through commerce's outbox (decision 0019); its clock moves with pos's.
        { transport: commerceTransport, now: () => new Date(Date.now() + offsetMs) },
      )
    : undefined;
  const gateway: Gateway = await startTestGateway({
    ...SERVICES_DOWN,
    ...addresses,
    POS_GRPC_URL: posUrl,
    ...(commerceService ? { COMMERCE_GRPC_URL: `127.0.0.1:${commerceService.port}` } : {}),
    CTK_ORDER_EVENT_STREAMS_PER_ADDRESS: String(EVENT_STREAMS_PER_ADDRESS),
    ...options.gatewayEnv,
  });

  /** A new organisation with a wallet (its xpub registered): its owner can take orders. `extra` goes to onboarding. */
  async function walletOrg(label: string, extra: Record<string, unknown> = {}): Promise<Onboarded> {
    const owner = await onboard(gateway, uniqueName(label), extra);
    const xpub = HD.fromRandom().derive("m/44'/236'/0'").toPublic().toString();
    const patched = await gateway.app.inject({
      method: 'PATCH',
      url: `/api/v1/organizations/${owner.handle}`,
      headers: bearer(owner.key),
      payload: { wallet_xpub: xpub },
    });
    if (patched.statusCode !== 200) throw new Error(`registering the xpub failed: ${patched.body}`);
    return owner;
  }

  /** A customer's signed transaction paying each output, change back to the customer. */
  async function paying(outputs: { script: string; satoshis: number }[]) {
    const key = PrivateKey.fromRandom();
    const funded = await requestFaucet(chain.url, key.toAddress('testnet'), 1_000_000);
    const source = Transaction.fromHex(funded.raw_tx);
    const tx = new Transaction();
    tx.addInput({ sourceTransaction: source, sourceOutputIndex: funded.vout, unlockingScriptTemplate: new P2PKH().unlock(key) });
    for (const output of outputs) tx.addOutput({ lockingScript: LockingScript.fromHex(output.script), satoshis: output.satoshis });
    const spent = outputs.reduce((sum, output) => sum + output.satoshis, 0);
    tx.addOutput({
      lockingScript: new P2PKH().lock(key.toAddress('testnet')),
      satoshis: source.outputs[funded.vout]!.satoshis! - spent - 500,
    });
    await tx.sign();
    return tx;
  }

  return {
    gateway,
    posUrl,
    /** The local chain's URL (a test's own chain client, faucet and blocks). */
    chainUrl: chain.url,
    /** The public key pos's Google Wallet save links verify with (its development key, made at start). */
    googlePassKey: (): Promise<KeyObject> => posService.cards.passes.googlePublicKey(),
    walletOrg,
    paying,
    /** Whether the local chain knows the transaction (ARC's status read): broadcast, in its mempool or mined. */
    async onChain(txid: string): Promise<boolean> {
      const response = await fetch(`${chain.url}/v1/tx/${txid}`);
      if (response.status !== 200 && response.status !== 404) throw new Error(`the local chain answered ${response.status}`);
      return response.status === 200;
    },
    /** Mines blocks on the local chain (the transactions waiting are mined in the first). */
    mine: (blocks = 1) => mineBlocks(chain.url, blocks),
    /** Commerce's line to pos: `cut()` refuses and drops its connections (pos down, for commerce only), `restore()`. */
    posLink,
    /** Holds commerce's event deliveries (its order changes) back until the returned function is called. */
    holdBackCommerce(): () => void {
      let open!: () => void;
      commerceGate = new Promise<void>((resolve) => (open = resolve));
      return () => {
        commerceGate = undefined;
        open();
      };
    },
    /** Moves pos's (and commerce's) clock this many seconds ahead of the real one (negative: back). */
    advance(seconds: number) {
      offsetMs += seconds * 1000;
    },
    async close() {
      await gateway.close();
      await commerceService?.close();
      await posService.close();
      await posLink.close();
      await p2pService.close();
      await booksService.close();
      await transport.close();
      await chain.close();
    },
  };
}

/** A TCP proxy to a local port that a test can cut (connections refused and dropped) and restore. */
async function startCuttableLink(targetPort: number) {
  const sockets = new Set<Socket>();
  let cut = false;
  const server = createServer((client) => {
    if (cut) return void client.destroy();
    const upstream = createConnection({ host: '127.0.0.1', port: targetPort });
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => socket.destroy());
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as { port: number }).port,
    cut() {
      cut = true;
      for (const socket of sockets) socket.destroy();
    },
    restore() {
      cut = false;
    },
    close: () => {
      for (const socket of sockets) socket.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
