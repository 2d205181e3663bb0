import { fileURLToPath } from 'node:url';
import { PosServiceDefinition } from '@ctk/proto/ctk/pos/v1/pos';
import { createGrpcClient, defineService } from '@ctk/shared';
import { createCatalogReader } from './catalog/catalog-reader.js';
import { configSchema, type Config } from './config.js';
import { createCheckoutRepository } from './data/checkout-repository.js';
import { createTicketRepository } from './data/ticket-repository.js';
import { PrismaClient } from './generated/prisma/client.js';
import { commerceService } from './grpc/commerce-service.js';

export { configSchema, type Config } from './config.js';

/**
 * The commerce service: CommerceService over gRPC on its own database (checkouts), calling pos for the
 * catalog and the orders checkouts open (docs/decisions/0018-commerce-checkout.md), and ticket catalogs
 * with their seat holds and tickets (docs/decisions/0020-tickets.md). A test may give the clock.
 */
export const service = defineService<Config, PrismaClient, { now: () => Date }>({
  name: 'commerce',
  configSchema,
  database: { prismaDir: fileURLToPath(new URL('../prisma', import.meta.url)), createClient: (adapter) => new PrismaClient({ adapter }) },
  build: ({ config, prisma }, options) => {
    const pos = createGrpcClient(PosServiceDefinition, config.POS_GRPC_URL);
    return {
      grpc: commerceService({
        pos,
        catalogs: createCatalogReader(pos, config.COMMERCE_CATALOG_CACHE_MS),
        checkouts: createCheckoutRepository(prisma),
        tickets: createTicketRepository(prisma),
        now: options.now ?? (() => new Date()),
      }),
      close: async () => pos.close(),
    };
  },
});
