import { startLocalChain, type RunningLocalChain } from '@ctk/chain/local';
import { configSchema as booksConfigSchema, service as booksService } from '@ctk/books';
import { configSchema as p2pConfigSchema, service as p2pService } from '@ctk/p2p';
import { configSchema as posConfigSchema, service as posService } from '@ctk/pos';
import { loadConfig, startService } from '@ctk/shared';
import { createTestDatabase, TEST_DATA_DIR } from '@ctk/shared/testing';
import { startTestGateway } from './harness.js';
import { SERVICES_DOWN } from './support.js';

async function database(prefix: string) {
  const url = await createTestDatabase(prefix);
  return { CTK_DATA_DIR: TEST_DATA_DIR, ...(url ? { DATABASE_URL: url } : {}) };
}

/**
 * The pos service on a free port with its own database, and a gateway pointed at it (every other service
 * down). With `orders`, a local chain, p2p and books too (orders need p2p's receiving outputs and books'
 * tax settings), pos and the gateway pointed at them; `gatewayEnv` adds to the gateway's configuration.
 */
export async function startPosStack(options: { orders?: boolean; gatewayEnv?: Record<string, string> } = {}) {
  let chain: RunningLocalChain | undefined;
  let p2p: Awaited<ReturnType<typeof startService>> | undefined;
  let books: Awaited<ReturnType<typeof startService>> | undefined;
  if (options.orders) {
    chain = await startLocalChain({ port: 0 });
    const chainEnv = { CHAIN_NETWORK: 'local', CHAIN_LOCAL_URL: chain.url, CHAIN_RETRIES: '1' };
    p2p = await startService(
      p2pService,
      loadConfig(p2pConfigSchema, { GRPC_PORT: '0', LOG_LEVEL: 'silent', ...chainEnv, ...(await database('p2p')) }),
    );
    books = await startService(
      booksService,
      loadConfig(booksConfigSchema, { GRPC_PORT: '0', LOG_LEVEL: 'silent', ...(await database('books')) }),
    );
  }
  const ordersUrls: Record<string, string> =
    p2p && books ? { P2P_GRPC_URL: `127.0.0.1:${p2p.port}`, BOOKS_GRPC_URL: `127.0.0.1:${books.port}` } : {};
  const pos = await startService(
    posService,
    loadConfig(posConfigSchema, {
      GRPC_PORT: '0',
      LOG_LEVEL: 'silent',
      POS_WATCH_INTERVAL_MS: '0',
      ...ordersUrls,
      ...(await database('pos')),
    }),
  );
  const gateway = await startTestGateway({ ...SERVICES_DOWN, ...ordersUrls, POS_GRPC_URL: `127.0.0.1:${pos.port}`, ...options.gatewayEnv });
  return {
    gateway,
    posUrl: `127.0.0.1:${pos.port}`,
    async close() {
      await gateway.close();
      await pos.close();
      await p2p?.close();
      await books?.close();
      await chain?.close();
    },
  };
}
