import type { SqlQueries } from '@ctk/shared';
import type { OrderCreditUse, Prisma, PrismaClient } from '../generated/prisma/client.js';

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
