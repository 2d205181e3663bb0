import { fileURLToPath } from 'node:url';
import { defineService } from '@ctk/shared';
import { configSchema } from './config.js';
import { createOcrReader } from './analyze/ocr-reader.js';
import { createItemRepository } from './data/item-repository.js';
import { createMenuRepository } from './data/menu-repository.js';
import { PrismaClient } from './generated/prisma/client.js';
import { posService } from './grpc/pos-service.js';

export { configSchema, type Config } from './config.js';

/** The pos service: PosService over gRPC on its own database (items and the menu), and item drafts read from text, CSV or a menu photo. */
export const service = defineService({
  name: 'pos',
  configSchema,
  database: { prismaDir: fileURLToPath(new URL('../prisma', import.meta.url)), createClient: (adapter) => new PrismaClient({ adapter }) },
  build: ({ config, prisma, logger }) => {
    const ocr = createOcrReader({ timeoutMs: config.POS_OCR_TIMEOUT_MS, maxWaiting: config.POS_OCR_MAX_WAITING, logger });
    return {
      grpc: posService({
        items: createItemRepository(prisma, { firstPageTtlMs: config.POS_ITEMS_CACHE_MS }),
        menus: createMenuRepository(prisma),
        ocr,
      }),
      // The OCR worker thread would keep the process alive.
      close: () => ocr.close(),
    };
  },
});
