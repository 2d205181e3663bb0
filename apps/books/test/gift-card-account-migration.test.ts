import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openPrisma } from '@ctk/shared';
import { createTestDatabase, prismaDirUpTo } from '@ctk/shared/testing';
import { afterAll, expect, it } from 'vitest';
import { CHART_OF_ACCOUNTS } from '../src/domain/chart-of-accounts.js';
import { PrismaClient } from '../src/generated/prisma/client.js';

const PRISMA_DIR = fileURLToPath(new URL('../prisma', import.meta.url));
/** The last migration before 2300 became the gift card liability (decision 0017). */
const BEFORE_SWAP = '20261123160000_tips_and_rate_source';
const OLD_CHART = [
  ['1010', 'BSV wallet', 'asset'],
  ['2100', 'Sales tax payable', 'liability'],
  ['2200', 'Gift card liability', 'liability'],
  ['2300', 'Loyalty liability', 'liability'],
  ['4000', 'Revenue', 'income'],
] as const;

const scratch = await mkdtemp(join(tmpdir(), 'books-gift-card-migration-'));
afterAll(() => rm(scratch, { recursive: true, force: true }));

it("gives every organisation's chart 2300 Gift card liability and 2200 Loyalty liability, lines staying with their account", async () => {
  // The database as it was before the migration: its prisma folder without the migrations that came after.
  const oldPrisma = await prismaDirUpTo(PRISMA_DIR, BEFORE_SWAP, scratch);
  const databaseUrl = await createTestDatabase('books_gift_card_migration');
  const dataDir = join(scratch, 'data');
  const withLines = randomUUID();
  const withoutLines = randomUUID();
  const before = await openPrisma(
    { service: 'books', databaseUrl, dataDir, prismaDir: oldPrisma },
    (adapter) => new PrismaClient({ adapter }),
  );
  const accountIds = new Map<string, string>();
  for (const org of [withLines, withoutLines]) {
    for (const [code, name, type] of OLD_CHART) {
      const id = randomUUID();
      accountIds.set(`${org}:${code}`, id);
      await before.prisma.$executeRawUnsafe(
        `INSERT INTO accounts (id, organization_id, code, name, type) VALUES ($1::uuid, $2::uuid, $3, $4, $5::account_type)`,
        id,
        org,
        code,
        name,
        type,
      );
    }
  }
  // A gift card sold under the old chart (no instance posted one: pos emitted none before cards were built).
  const entryId = randomUUID();
  await before.prisma.$executeRawUnsafe(
    `INSERT INTO journal_entries (id, organization_id, event_id, event_type, occurred_at, currency) VALUES ($1::uuid, $2::uuid, 'evt-gift', 'prepaid.issued', now(), 'USD')`,
    entryId,
    withLines,
  );
  for (const [lineNo, code, debit, credit] of [
    [0, '1010', 5000, 0],
    [1, '2200', 0, 5000],
  ] as const) {
    await before.prisma.$executeRawUnsafe(
      `INSERT INTO journal_lines (id, entry_id, line_no, account_id, debit_minor, credit_minor) VALUES ($1::uuid, $2::uuid, $3, $4::uuid, $5, $6)`,
      randomUUID(),
      entryId,
      lineNo,
      accountIds.get(`${withLines}:${code}`),
      debit,
      credit,
    );
  }
  await before.close();

  const after = await openPrisma(
    { service: 'books', databaseUrl, dataDir, prismaDir: PRISMA_DIR },
    (adapter) => new PrismaClient({ adapter }),
  );
  try {
    const chart = new Map<string, string>(CHART_OF_ACCOUNTS.map((account) => [account.code, account.name]));
    for (const org of [withLines, withoutLines]) {
      const accounts = await after.prisma.account.findMany({ where: { organizationId: org }, orderBy: { code: 'asc' } });
      expect(accounts.map((account) => [account.code, account.name])).toEqual(OLD_CHART.map(([code]) => [code, chart.get(code)]));
      // Each row kept its id: the account is the same, under its new code.
      expect(accounts.find((account) => account.code === '2300')?.id).toBe(accountIds.get(`${org}:2200`));
      expect(accounts.find((account) => account.code === '2200')?.id).toBe(accountIds.get(`${org}:2300`));
    }
    const lines = await after.prisma.journalLine.findMany({ where: { entryId }, include: { account: true }, orderBy: { lineNo: 'asc' } });
    expect(lines.map((line) => [line.account.code, line.account.name, line.creditMinor])).toEqual([
      ['1010', 'BSV wallet', 0n],
      ['2300', 'Gift card liability', 5000n],
    ]);
  } finally {
    await after.close();
  }
}, 120_000);
