import { fileURLToPath } from 'node:url';
import { PosServiceDefinition } from '@ctk/proto/ctk/pos/v1/pos';
import { createLogger, openPrisma, startGrpcServer, type Logger } from '@ctk/shared';
import type { Config } from './config.js';
import { createItemRepository } from './data/item-repository.js';
import { PrismaClient } from './generated/prisma/client.js';
import { posService } from './grpc/pos-service.js';

export { configSchema, type Config } from './config.js';

const PRISMA_DIR = fileURLToPath(new URL('../prisma', import.meta.url));

/** Opens and migrates the pos database, then serves PosService and grpc.health.v1. */
export async function startPos(config: Config, logger: Logger = createLogger('pos', config.LOG_LEVEL)) {
  const { prisma, close: closeDatabase } = await openPrisma(
    { service: 'pos', databaseUrl: config.DATABASE_URL, dataDir: config.CTK_DATA_DIR, prismaDir: PRISMA_DIR },
    (adapter) => new PrismaClient({ adapter }),
  );
  try {
    const server = await startGrpcServer({
      name: 'pos',
      address: `${config.GRPC_HOST}:${config.GRPC_PORT}`,
      logger,
      services: [
        [PosServiceDefinition, posService({ items: createItemRepository(prisma, { firstPageTtlMs: config.POS_ITEMS_CACHE_MS }) })],
      ],
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
