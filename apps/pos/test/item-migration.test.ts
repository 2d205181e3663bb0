import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PosServiceDefinition } from '@ctk/proto/ctk/pos/v1/pos';
import { loadConfig, openDatabase, startService } from '@ctk/shared';
import { createTestDatabase, createTestClient, prismaDirUpTo } from '@ctk/shared/testing';
import { afterAll, expect, it } from 'vitest';
import { configSchema, service as pos } from '../src/app.js';
import { PrismaClient } from '../src/generated/prisma/client.js';
import { newOrg } from './support.js';

const PRISMA_DIR = fileURLToPath(new URL('../prisma', import.meta.url));
/** The last migration before items carried a tax treatment, a price type, inventory and modifiers. */
const BEFORE_ITEM_OPTIONS = '20261123114720_outbox';

const scratch = await mkdtemp(join(tmpdir(), 'pos-migration-'));
afterAll(() => rm(scratch, { recursive: true, force: true }));

it('makes the items a database already holds standard-rated, fixed-price, untracked and without modifiers', async () => {
  // The database as it was before the migration: its prisma folder without the migrations that came after.
  const oldPrisma = await prismaDirUpTo(PRISMA_DIR, BEFORE_ITEM_OPTIONS, scratch);
  const databaseUrl = await createTestDatabase('pos_migration');
  const dataDir = join(scratch, 'data');
  const old = await openDatabase({ service: 'pos', databaseUrl, dataDir, prismaDir: oldPrisma });
  const org = newOrg();
  const itemId = randomUUID();
  const prisma = new PrismaClient({ adapter: old.adapter });
  await prisma.$executeRaw`INSERT INTO items (id, organization_id, name, price_cents, currency)
    VALUES (${itemId}::uuid, ${org.id}::uuid, 'Drip coffee', 300, 'USD')`;
  await prisma.$disconnect();
  await old.close();

  // The service starts on that database and applies the rest.
  const service = await startService(
    pos,
    loadConfig(configSchema, {
      GRPC_PORT: '0',
      LOG_LEVEL: 'silent',
      CTK_DATA_DIR: dataDir,
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    }),
  );
  const client = createTestClient(PosServiceDefinition, `127.0.0.1:${service.port}`);
  try {
    const { items } = await client.listItems({ org });
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({
      id: itemId,
      name: 'Drip coffee',
      priceCents: 300n,
      taxTreatment: 'standard',
      taxRate: undefined,
      priceType: 'fixed',
      modifiers: [],
    });
    expect(items[0]?.inventory).toBeUndefined();
  } finally {
    client.close();
    await service.close();
  }
});
