import { configSchema as booksConfigSchema, service as books } from '@ctk/books';
import { createChainClient, type ChainClient } from '@ctk/chain';
import { startLocalChain, type RunningLocalChain } from '@ctk/chain/local';
import { configSchema as p2pConfigSchema, service as p2p } from '@ctk/p2p';
import { inProcessTransport, loadConfig, startService, type EventTransport } from '@ctk/shared';
import { createTestDatabase, freePort, TEST_DATA_DIR } from '@ctk/shared/testing';
import { startTestGateway, type Gateway } from './harness.js';
import { SERVICES_DOWN } from './support.js';

export type PaymailStack = {
  gateway: Gateway;
  /** Where the gateway answers over HTTP, e.g. http://localhost:40123; its paymails are alias@localhost. */
  base: string;
  chain: RunningLocalChain;
  chainClient: ChainClient;
  close(): Promise<void>;
};

async function database(prefix: string) {
  const url = await createTestDatabase(prefix);
  return { CTK_DATA_DIR: TEST_DATA_DIR, ...(url ? { DATABASE_URL: url } : {}) };
}

/**
 * The paymail path end to end in one process: a local chain on a free port, books and p2p on their own
 * databases sharing one event transport (in process unless `natsUrl`), and the gateway listening over
 * HTTP with its public URL on that port, as a paying wallet reaches it.
 */
export async function startPaymailStack(
  options: { natsUrl?: string; transport?: EventTransport; p2pEnv?: Record<string, string> } = {},
): Promise<PaymailStack> {
  const chain = await startLocalChain({ port: 0 });
  const transport = options.natsUrl ? undefined : (options.transport ?? inProcessTransport());
  const env = { GRPC_PORT: '0', LOG_LEVEL: 'silent', ...(options.natsUrl ? { NATS_URL: options.natsUrl } : {}) };
  const booksService = await startService(books, loadConfig(booksConfigSchema, { ...env, ...(await database('books')) }), { transport });
  const chainEnv = { CHAIN_NETWORK: 'local', CHAIN_LOCAL_URL: chain.url, CHAIN_RETRIES: '1' };
  const p2pService = await startService(
    p2p,
    loadConfig(p2pConfigSchema, { ...env, ...chainEnv, ...options.p2pEnv, ...(await database('p2p')) }),
    {
      transport,
    },
  );
  // The public URL (where paymail capabilities point) follows PORT, as for a newcomer's second instance.
  const port = await freePort();
  const gateway = await startTestGateway({
    ...SERVICES_DOWN,
    BOOKS_GRPC_URL: `127.0.0.1:${booksService.port}`,
    P2P_GRPC_URL: `127.0.0.1:${p2pService.port}`,
    PORT: String(port),
    HOST: 'localhost',
  });
  const base = `http://localhost:${port}`;
  return {
    gateway,
    base,
    chain,
    chainClient: createChainClient({ network: 'local', localUrl: chain.url, retries: 1, retryBaseMs: 20 }),
    async close() {
      await gateway.close();
      await p2pService.close();
      await booksService.close();
      await transport?.close();
      await chain.close();
    },
  };
}

export { http, merchantKeys, type HttpAnswer } from './wallet-http.js';
