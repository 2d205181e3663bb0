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
/** The last migration before the menu carried its tip choices. */
const BEFORE_TIP_CHOICES = '20261123161518_pay_links';

const scratch = await mkdtemp(join(tmpdir(), 'pos-tip-migration-'));
afterAll(() => rm(scratch, { recursive: true, force: true }));

// Two databases are migrated from scratch here, every migration since: on PGlite under a loaded machine that
// takes longer than the default 30 s.
it(
  'gives a menu saved before the tip choices the default ones, keeps its version, and holds the bounds in the database',
  { timeout: 120_000 },
  async () => {
    // The database as it was before the migration: its prisma folder without the migrations that came after.
    const oldPrisma = await prismaDirUpTo(PRISMA_DIR, BEFORE_TIP_CHOICES, scratch);
    const databaseUrl = await createTestDatabase('pos_tip_migration');
    const dataDir = join(scratch, 'data');
    const old = await openDatabase({ service: 'pos', databaseUrl, dataDir, prismaDir: oldPrisma });
    const org = newOrg();
    const before = new PrismaClient({ adapter: old.adapter });
    await before.$executeRaw`INSERT INTO menus (organization_id, version) VALUES (${org.id}::uuid, 3)`;
    await before.$disconnect();
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
      expect((await client.getMenu({ org })).menu).toMatchObject({ version: 3n, tipBasisPoints: [1000, 1500, 2000] });
    } finally {
      client.close();
      await service.close();
    }

    // Past pos's validation, the database itself refuses choices out of bounds.
    const after = await openDatabase({ service: 'pos', databaseUrl, dataDir, prismaDir: PRISMA_DIR });
    const prisma = new PrismaClient({ adapter: after.adapter });
    try {
      for (const tips of [[1000, 0], [10_001], [1, 2, 3, 4, 5, 6, 7]])
        await expect(prisma.menu.update({ where: { organizationId: org.id }, data: { tipBasisPoints: tips } })).rejects.toThrow(
          /menus_tip_basis_points_check/,
        );
      const [row] = await prisma.$queryRaw<Array<{ tips: number[] }>>`
      SELECT tip_basis_points AS tips FROM menus WHERE organization_id = ${org.id}::uuid`;
      expect(row?.tips).toEqual([1000, 1500, 2000]);
    } finally {
      await prisma.$disconnect();
      await after.close();
    }
  },
);
