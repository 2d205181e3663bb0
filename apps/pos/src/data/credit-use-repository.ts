import type { OrderCreditUse, Prisma, PrismaClient } from '../generated/prisma/client.js';
import type { Shares } from '../prepaid/use-shares.js';
import { cardSharesOf } from './prepaid-card-repository.js';

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
export async function liveCreditUsesOf(tx: Prisma.TransactionClient, orderId: string): Promise<OrderCreditUse[]> {
  return tx.orderCreditUse.findMany({ where: { orderId, restoredAt: null }, orderBy: { occurredAt: 'asc' } });
}

export async function markCreditUseRestored(tx: Prisma.TransactionClient, id: string, at: Date): Promise<void> {
  await tx.orderCreditUse.update({ where: { id }, data: { restoredAt: at } });
}

/**
 * What the order's live stored-value uses add up to, prepaid cards' and credits' together: the amount and the
 * tax and tip they carried to the books. The payment that completes the order carries the rest.
 */
export async function storedValueSharesOf(db: Db, orderId: string): Promise<Shares> {
  const cards = await cardSharesOf(db, orderId);
  const credits = await db.orderCreditUse.aggregate({
    where: { orderId, restoredAt: null },
    _sum: { amountMinor: true, taxMinor: true, tipMinor: true },
  });
  return {
    amountMinor: cards.amountMinor + (credits._sum.amountMinor ?? 0n),
    taxMinor: cards.taxMinor + (credits._sum.taxMinor ?? 0n),
    tipMinor: cards.tipMinor + (credits._sum.tipMinor ?? 0n),
  };
}
