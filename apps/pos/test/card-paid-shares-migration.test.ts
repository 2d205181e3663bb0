import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openDatabase } from '@ctk/shared';
import { createTestDatabase, prismaDirUpTo } from '@ctk/shared/testing';
import { afterAll, expect, it } from 'vitest';
import { PrismaClient } from '../src/generated/prisma/client.js';
import { newOrg } from './support.js';

const PRISMA_DIR = fileURLToPath(new URL('../prisma', import.meta.url));
/** The last migration before an order kept the tax and tip of what stored value paid (decision 0070). */
const BEFORE_CARD_PAID_SHARES = '20261201174130_outbox_unsent_index';

const scratch = await mkdtemp(join(tmpdir(), 'pos-card-paid-shares-'));
afterAll(() => rm(scratch, { recursive: true, force: true }));

const order = (id: string, orgId: string, number: string, cardPaid: bigint) => `INSERT INTO orders (id, order_number, organization_id,
  merchant_handle, currency, subtotal_minor, discount_minor, tax_minor, tip_minor, total_minor, prices_include_tax, exchange_rate,
  rate_source, rate_at, satoshis, address, script, receipt_merchant, lines_hash, expires_at, card_paid_minor)
  VALUES ('${id}', '${number}', '${orgId}', 'cafe', 'USD', 1000, 0, 100, 50, 1150, false, '1', 'fixed', now(), 780, 'addr', 'script',
  'Cafe', 'hash', now() + interval '1 hour', ${cardPaid})`;

const activity = (
  id: string,
  sequence: number,
  kind: string,
  amount: number,
  tax: number,
  tip: number,
  orderId: string,
  restores?: string,
) =>
  `INSERT INTO prepaid_card_activities (id, card_id, sequence, kind, amount_minor, balance_after_minor, tax_minor, tip_minor, order_id, restores_id)
  VALUES ('${id}', '00000000-0000-4000-8000-0000000000c1', ${sequence}, '${kind}', ${amount}, 1000, ${tax}, ${tip}, '${orderId}',
  ${restores ? `'${restores}'` : 'NULL'})`;

const creditUse = (id: string, orgId: string, orderId: string, amount: number, tax: number, tip: number, restored: boolean) =>
  `INSERT INTO order_credit_uses (id, organization_id, order_id, redemption_id, token_id, symbol, units, amount_minor, tax_minor, tip_minor,
  occurred_at, restored_at) VALUES ('${id}', '${orgId}', '${orderId}', 'redemption-${id}', 'token_0', 'CAFE', 1, ${amount}, ${tax}, ${tip},
  now(), ${restored ? 'now()' : 'NULL'})`;

// Every migration since the scratch database's first is applied twice here: on PGlite under a loaded machine that
// takes longer than the default 30 s.
it(
  "gives each order the tax and tip of the stored-value uses that stand on it: cards' redeems no restore undid and credits not restored",
  { timeout: 120_000 },
  async () => {
    // The database as it was before the migration: its prisma folder without the migrations that came after.
    const oldPrisma = await prismaDirUpTo(PRISMA_DIR, BEFORE_CARD_PAID_SHARES, scratch);
    const databaseUrl = await createTestDatabase('pos_card_paid_shares');
    const dataDir = join(scratch, 'data');
    const { id: orgId } = newOrg();
    const paying = '00000000-0000-4000-8000-0000000000a1';
    const released = '00000000-0000-4000-8000-0000000000a2';
    const unpaid = '00000000-0000-4000-8000-0000000000a3';
    const old = await openDatabase({ service: 'pos', databaseUrl, dataDir, prismaDir: oldPrisma });
    const before = new PrismaClient({ adapter: old.adapter });
    try {
      for (const statement of [
        // Paid in part: two card uses and a credit use stand (100 + 200 + 70); a credit use was restored.
        order(paying, orgId, 'A-1', 370n),
        // Its uses all given back when it expired: card_paid_minor went back to 0.
        order(released, orgId, 'A-2', 0n),
        order(unpaid, orgId, 'A-3', 0n),
        `INSERT INTO prepaid_cards (id, organization_id, merchant_handle, currency, initial_minor, identifier_hash, identifier_sealed,
          identifier_last4) VALUES ('00000000-0000-4000-8000-0000000000c1', '${orgId}', 'cafe', 'USD', 5000, '${'ab'.repeat(32)}', '\\x00', '1234')`,
        activity('00000000-0000-4000-8000-0000000000b1', 1, 'redeem', -100, 10, 5, paying),
        activity('00000000-0000-4000-8000-0000000000b2', 2, 'redeem', -200, 20, 0, paying),
        activity('00000000-0000-4000-8000-0000000000b3', 3, 'redeem', -50, 4, 1, released),
        activity('00000000-0000-4000-8000-0000000000b4', 4, 'restore', 50, 4, 1, released, '00000000-0000-4000-8000-0000000000b3'),
        creditUse('00000000-0000-4000-8000-0000000000d1', orgId, paying, 70, 7, 2, false),
        creditUse('00000000-0000-4000-8000-0000000000d2', orgId, paying, 30, 3, 1, true),
        creditUse('00000000-0000-4000-8000-0000000000d3', orgId, released, 40, 4, 0, true),
      ])
        await before.$executeRawUnsafe(statement);
    } finally {
      await before.$disconnect();
      await old.close();
    }

    const after = await openDatabase({ service: 'pos', databaseUrl, dataDir, prismaDir: PRISMA_DIR });
    const prisma = new PrismaClient({ adapter: after.adapter });
    try {
      const orders = await prisma.order.findMany({
        where: { organizationId: orgId },
        orderBy: { orderNumber: 'asc' },
        select: { orderNumber: true, cardPaidMinor: true, cardPaidTaxMinor: true, cardPaidTipMinor: true },
      });
      expect(orders).toEqual([
        { orderNumber: 'A-1', cardPaidMinor: 370n, cardPaidTaxMinor: 37n, cardPaidTipMinor: 7n },
        { orderNumber: 'A-2', cardPaidMinor: 0n, cardPaidTaxMinor: 0n, cardPaidTipMinor: 0n },
        { orderNumber: 'A-3', cardPaidMinor: 0n, cardPaidTaxMinor: 0n, cardPaidTipMinor: 0n },
      ]);
    } finally {
      await prisma.$disconnect();
      await after.close();
    }
  },
);
