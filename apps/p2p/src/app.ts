import { fileURLToPath } from 'node:url';
import { chainClientOptions, createChainClient, type ChainClient } from '@ctk/chain';
import { P2pServiceDefinition } from '@ctk/proto/ctk/p2p/v1/p2p';
import { createLogger, openPrisma, startGrpcServer, type EventTransport, type Logger } from '@ctk/shared';
import type { Config } from './config.js';
import { startRelay } from './events/start-relay.js';
import { PrismaClient } from './generated/prisma/client.js';
import { p2pService } from './grpc/p2p-service.js';

export { configSchema, type Config } from './config.js';

const PRISMA_DIR = fileURLToPath(new URL('../prisma', import.meta.url));

export type P2pOptions = {
  /**
   * Publish payment events to this transport (the embedded default's in-process one, or a test's)
   * instead of NATS_URL. The caller owns it: p2p stops its relay on close, never the transport.
   */
  transport?: EventTransport;
  /** The chain client; by default one from the CHAIN_* configuration. */
  chain?: ChainClient;
};

/**
 * Opens and migrates the p2p database, serves P2pService and grpc.health.v1, and relays its outbox of
 * payment events to the given transport, else to NATS_URL.
 */
export async function startP2p(config: Config, logger: Logger = createLogger('p2p', config.LOG_LEVEL), options: P2pOptions = {}) {
  const { prisma, close: closeDatabase } = await openPrisma(
    { service: 'p2p', databaseUrl: config.DATABASE_URL, dataDir: config.CTK_DATA_DIR, prismaDir: PRISMA_DIR },
    (adapter) => new PrismaClient({ adapter }),
  );
  try {
    const chain = options.chain ?? createChainClient(chainClientOptions(config));
    const relay = await startRelay({ transport: options.transport, natsUrl: config.NATS_URL }, prisma, logger);
    const server = await startGrpcServer({
      name: 'p2p',
      address: `${config.GRPC_HOST}:${config.GRPC_PORT}`,
      logger,
      services: [[P2pServiceDefinition, p2pService({ prisma, chain, config, eventsCommitted: relay.notify })]],
    }).catch(async (error: unknown) => {
      await relay.stop();
      throw error;
    });
    return {
      port: server.port,
      /** Stops taking calls, publishes what is pending, then closes the database. */
      async close(): Promise<void> {
        await server.shutdown();
        await relay.stop();
        await closeDatabase();
      },
    };
  } catch (error) {
    await closeDatabase();
    throw error;
  }
}
