import type { SqlQueries } from '@ctk/shared';
import type { OrderCreditUse, Prisma, PrismaClient } from '../generated/prisma/client.js';
import type { Shares } from '../prepaid/use-shares.js';

export type { OrderCreditUse };
type Db = PrismaClient | Prisma.TransactionClient;

/** Credits redeemed on orders (decision 0036): one row per contracts redemption, restored when its order ends unpaid. */

export async function creditUseOf(db: Db, redemptionId: string): Promise<OrderCreditUse | null> {
  return db.orderCreditUse.findUnique({ where: { redemptionId } });
}

export async function insertCreditUse(
  tx: Prisma.TransactionClient,
  row: Omit<OrderCreditUse, 'id' | 'restoredAt'>,
): Promise<OrderCreditUse> {
  return tx.orderCreditUse.create({ data: row });
}

/** The order's credit uses that stand (not restored), oldest first. */
export async function liveCreditUsesOf(tx: SqlQueries, orderId: string): Promise<OrderCreditUse[]> {
  return tx.rows<OrderCreditUse>('SELECT * FROM order_credit_uses WHERE order_id = $1::uuid AND restored_at IS NULL ORDER BY occurred_at', [
    orderId,
  ]);
}

export async function markCreditUseRestored(tx: SqlQueries, id: string, at: Date): Promise<void> {
  await tx.rows('UPDATE order_credit_uses SET restored_at = $2::timestamp(3) WHERE id = $1::uuid', [id, at]);
}

/**
 * What the order's live stored-value uses add up to, prepaid cards' (redeems no restore undid) and credits'
 * (not restored) together: the amount and the tax and tip they carried to the books. The payment that completes
 * the order carries the rest. One statement (decision 0048): every card use asks it.
 */
export async function storedValueSharesOf(sql: SqlQueries, orderId: string): Promise<Shares> {
  const [shares] = await sql.rows<Shares>(STORED_VALUE_SHARES, [orderId]);
  return shares!;
}

/**
 * storedValueSharesOf's statement for the order `order` (a parameter, or a column of an outer query: a card use's
 * read of its orders and cards joins it, ordersAndCardsForUse).
 */
export const storedValueShares = (order: string) => `WITH cards AS (
    SELECT COALESCE(-SUM(a.amount_minor), 0)::int8 AS amount, COALESCE(SUM(a.tax_minor), 0)::int8 AS tax,
      COALESCE(SUM(a.tip_minor), 0)::int8 AS tip
    FROM prepaid_card_activities a
    WHERE a.order_id = ${order} AND a.kind = 'redeem' AND NOT EXISTS (SELECT 1 FROM prepaid_card_activities r WHERE r.restores_id = a.id)),
  credits AS (
    SELECT COALESCE(SUM(amount_minor), 0)::int8 AS amount, COALESCE(SUM(tax_minor), 0)::int8 AS tax,
      COALESCE(SUM(tip_minor), 0)::int8 AS tip
    FROM order_credit_uses WHERE order_id = ${order} AND restored_at IS NULL)
  SELECT cards.amount + credits.amount AS amount_minor, cards.tax + credits.tax AS tax_minor, cards.tip + credits.tip AS tip_minor
  FROM cards, credits`;

const STORED_VALUE_SHARES = storedValueShares('$1::uuid');
