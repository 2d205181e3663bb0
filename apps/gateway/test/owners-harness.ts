import { configSchema as booksConfigSchema, service as books } from '@ctk/books';
import { configSchema as p2pConfigSchema, service as p2p } from '@ctk/p2p';
import { loadConfig, startService } from '@ctk/shared';
import { createTestDatabase, TEST_DATA_DIR } from '@ctk/shared/testing';
import { startTestGateway, type Gateway } from './harness.js';
import { SERVICES_DOWN } from './support.js';

async function database(prefix: string) {
  const url = await createTestDatabase(prefix);
  return { CTK_DATA_DIR: TEST_DATA_DIR, ...(url ? { DATABASE_URL: url } : {}) };
}

/**
 * The gateway with the owners of an organisation's facts (decision 0028): p2p (its wallet) and books (its
 * tax settings), each on its own database, every other service down. `down` leaves one of them down too.
 * p2p is given a chain nobody listens on: these tests never reach the chain.
 */
export async function startOwnersStack(options: { down?: 'p2p' | 'books' } = {}): Promise<Gateway> {
  const env = { GRPC_PORT: '0', LOG_LEVEL: 'silent' };
  const booksService =
    options.down === 'books' ? null : await startService(books, loadConfig(booksConfigSchema, { ...env, ...(await database('books')) }));
  const chain = { CHAIN_NETWORK: 'local', CHAIN_LOCAL_URL: 'http://127.0.0.1:1', CHAIN_RETRIES: '0' };
  const p2pService =
    options.down === 'p2p' ? null : await startService(p2p, loadConfig(p2pConfigSchema, { ...env, ...chain, ...(await database('p2p')) }));
  const gateway = await startTestGateway({
    ...SERVICES_DOWN,
    ...(booksService ? { BOOKS_GRPC_URL: `127.0.0.1:${booksService.port}` } : {}),
    ...(p2pService ? { P2P_GRPC_URL: `127.0.0.1:${p2pService.port}` } : {}),
  });
  const closeGateway = gateway.close.bind(gateway);
  return Object.assign(gateway, {
    async close() {
      await closeGateway();
      await p2pService?.close();
      await booksService?.close();
    },
  });
}
