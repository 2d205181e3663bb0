import { fileURLToPath } from 'node:url';
import { BooksServiceDefinition } from '@ctk/proto/ctk/books/v1/books';
import { createLogger, openPrisma, startGrpcServer, type EventTransport, type Logger } from '@ctk/shared';
import type { Config } from './config.js';
import { createBalanceRepository } from './data/balance-repository.js';
import { createJournalRepository } from './data/journal-repository.js';
import { createParkedEventRepository } from './data/parked-event-repository.js';
import { createReportRepository } from './data/report-repository.js';
import { startPaymentConsumer } from './events/start-payment-consumer.js';
import { PrismaClient } from './generated/prisma/client.js';
import { booksService } from './grpc/books-service.js';

export { configSchema, type Config } from './config.js';

const PRISMA_DIR = fileURLToPath(new URL('../prisma', import.meta.url));

export type BooksOptions = {
  /**
   * Consume payment events from this transport (the embedded default's in-process one, or a test's)
   * instead of NATS_URL. The caller owns it: books stops its consumer on close, never the transport.
   */
  transport?: EventTransport;
};

/**
 * Opens and migrates the books database, serves BooksService and grpc.health.v1, and consumes payment
 * events from the given transport, else from NATS_URL, else not at all.
 */
export async function startBooks(config: Config, logger: Logger = createLogger('books', config.LOG_LEVEL), options: BooksOptions = {}) {
  const { prisma, close: closeDatabase } = await openPrisma(
    { service: 'books', databaseUrl: config.DATABASE_URL, dataDir: config.CTK_DATA_DIR, prismaDir: PRISMA_DIR },
    (adapter) => new PrismaClient({ adapter }),
  );
  try {
    const deps = {
      journal: createJournalRepository(prisma),
      parked: createParkedEventRepository(prisma),
      reports: createReportRepository(prisma),
      balances: createBalanceRepository(prisma),
      logger,
    };
    const server = await startGrpcServer({
      name: 'books',
      address: `${config.GRPC_HOST}:${config.GRPC_PORT}`,
      logger,
      services: [[BooksServiceDefinition, booksService(deps)]],
    });
    const consumer = await startPaymentConsumer({ transport: options.transport, natsUrl: config.NATS_URL }, deps, logger).catch(
      async (error: unknown) => {
        await server.shutdown();
        throw error;
      },
    );
    return {
      port: server.port,
      /** Stops taking calls and events, lets those in hand finish, then closes the database. */
      async close(): Promise<void> {
        await Promise.all([consumer.stop(), server.shutdown()]);
        await closeDatabase();
      },
    };
  } catch (error) {
    await closeDatabase();
    throw error;
  }
}
