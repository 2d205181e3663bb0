import { fileURLToPath } from 'node:url';
import { defineService } from '@ctk/shared';
import { configSchema } from './config.js';
import { createItemRepository } from './data/item-repository.js';
import { createMenuRepository } from './data/menu-repository.js';
import { PrismaClient } from './generated/prisma/client.js';
import { posService } from './grpc/pos-service.js';

export { configSchema, type Config } from './config.js';

/** The pos service: PosService over gRPC on its own database (items and the menu). */
export const service = defineService({
  name: 'pos',
  configSchema,
  database: { prismaDir: fileURLToPath(new URL('../prisma', import.meta.url)), createClient: (adapter) => new PrismaClient({ adapter }) },
  build: ({ config, prisma }) => ({
    grpc: posService({
      items: createItemRepository(prisma, { firstPageTtlMs: config.POS_ITEMS_CACHE_MS }),
      menus: createMenuRepository(prisma),
    }),
  }),
});
