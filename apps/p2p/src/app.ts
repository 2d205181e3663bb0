import { fileURLToPath } from 'node:url';
import { chainClientOptions, createChainClient, type ChainClient } from '@ctk/chain';
import { defineService } from '@ctk/shared';
import { configSchema, type Config } from './config.js';
import { PrismaClient } from './generated/prisma/client.js';
import { p2pService } from './grpc/p2p-service.js';

export { configSchema, type Config } from './config.js';

/**
 * The p2p service: P2pService over gRPC on its own database (paymail references, spent txids), relaying
 * its outbox of payment events. A caller may give the chain client; by default one from CHAIN_*.
 */
export const service = defineService<Config, PrismaClient, { chain: ChainClient }>({
  name: 'p2p',
  configSchema,
  database: { prismaDir: fileURLToPath(new URL('../prisma', import.meta.url)), createClient: (adapter) => new PrismaClient({ adapter }) },
  emits: true,
  build: ({ config, prisma, sql, eventsCommitted }, options) => ({
    grpc: p2pService({ prisma, sql, chain: options.chain ?? createChainClient(chainClientOptions(config)), config, eventsCommitted }),
  }),
});
