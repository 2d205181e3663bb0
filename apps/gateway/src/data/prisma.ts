import { fileURLToPath } from 'node:url';
import { openPrisma as openServicePrisma } from '@ctk/shared';
import { PrismaClient } from '../generated/prisma/client.js';
import type { Config } from '../config.js';

export type { PrismaClient };

const PRISMA_DIR = fileURLToPath(new URL('../../prisma', import.meta.url));

/** Opens the gateway's identity database (PostgreSQL or embedded PGlite), migrated. */
export function openPrisma(config: Pick<Config, 'DATABASE_URL' | 'CTK_DATA_DIR'>) {
  return openServicePrisma(
    { service: 'gateway', databaseUrl: config.DATABASE_URL, dataDir: config.CTK_DATA_DIR, prismaDir: PRISMA_DIR },
    (adapter) => new PrismaClient({ adapter }),
  );
}
