import { fileURLToPath } from 'node:url';
import { defineService } from '@ctk/shared';
import { configSchema, type Config } from './config.js';
import { PrismaClient } from './generated/prisma/client.js';
import { contractsService } from './grpc/contracts-service.js';

export { configSchema, type Config } from './config.js';

/**
 * The contracts service: ContractsService over gRPC on its own database (PGlite by default, PostgreSQL at
 * DATABASE_URL), migrated on start. It calls p2p for the merchant's wallet and reads the chain.
 */
export const service = defineService<Config, PrismaClient>({
  name: 'contracts',
  configSchema,
  database: { prismaDir: fileURLToPath(new URL('../prisma', import.meta.url)), createClient: (adapter) => new PrismaClient({ adapter }) },
  build: () => ({ grpc: contractsService }),
});
