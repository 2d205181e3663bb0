import type { OrderRefund, OrderTransaction } from './order-repository.js';
import type { PrismaClient } from '../generated/prisma/client.js';

/** A refund and the order it is of, by the refund's id; null for an id no refund has. */
export async function refundWithOrder(prisma: PrismaClient, id: string) {
  return prisma.orderRefund.findUnique({
    where: { id },
    include: { order: { select: { id: true, orderNumber: true, organizationId: true, merchantHandle: true, currency: true } } },
  });
}

/**
 * A BIP270 payment claims the pending, unexpired refund for `txid` in one conditional update, unless another
 * transaction's claim since `staleBefore` holds it: true when it is now claimed by `txid`.
 */
export async function claimRefund(prisma: PrismaClient, id: string, txid: string, now: Date, staleBefore: Date): Promise<boolean> {
  const { count } = await prisma.orderRefund.updateMany({
    where: {
      id,
      status: 'pending',
      expiresAt: { gte: now },
      OR: [{ claimedTxid: null }, { claimedTxid: txid }, { claimedAt: null }, { claimedAt: { lt: staleBefore } }],
    },
    data: { claimedTxid: txid, claimedAt: now },
  });
  return count === 1;
}

/** Ends `txid`'s claim on the refund, if it still holds it. */
export async function releaseRefundClaim(prisma: PrismaClient, id: string, txid: string): Promise<void> {
  await prisma.orderRefund.updateMany({ where: { id, claimedTxid: txid }, data: { claimedTxid: null, claimedAt: null } });
}

/** Changes the refund inside the transaction that locked its order. */
export function updateRefund(tx: OrderTransaction, id: string, data: Partial<OrderRefund>): Promise<OrderRefund> {
  return tx.orderRefund.update({ where: { id }, data: data as never });
}
