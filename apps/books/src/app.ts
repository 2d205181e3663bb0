import { fileURLToPath } from 'node:url';
import { BooksServiceDefinition } from '@ctk/proto/ctk/books/v1/books';
import { createLogger, openPrisma, startGrpcServer, type Logger } from '@ctk/shared';
import type { Config } from './config.js';
import { createJournalRepository } from './data/journal-repository.js';
import { createParkedEventRepository } from './data/parked-event-repository.js';
import { PrismaClient } from './generated/prisma/client.js';
import { booksService } from './grpc/books-service.js';

export { configSchema, type Config } from './config.js';

const PRISMA_DIR = fileURLToPath(new URL('../prisma', import.meta.url));

/** Opens and migrates the books database, then serves BooksService and grpc.health.v1. */
export async function startBooks(config: Config, logger: Logger = createLogger('books', config.LOG_LEVEL)) {
  const { prisma, close: closeDatabase } = await openPrisma(
    { service: 'books', databaseUrl: config.DATABASE_URL, dataDir: config.CTK_DATA_DIR, prismaDir: PRISMA_DIR },
    (adapter) => new PrismaClient({ adapter }),
  );
  try {
    const deps = { journal: createJournalRepository(prisma), parked: createParkedEventRepository(prisma), logger };
    const server = await startGrpcServer({
      name: 'books',
      address: `${config.GRPC_HOST}:${config.GRPC_PORT}`,
      logger,
      services: [[BooksServiceDefinition, booksService(deps)]],
    });
    return {
      port: server.port,
      async close(): Promise<void> {
        await server.shutdown();
        await closeDatabase();
      },
    };
  } catch (error) {
    await closeDatabase();
    throw error;
  }
}
