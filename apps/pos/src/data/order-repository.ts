import { AppError, isUniqueViolation } from '@ctk/shared';
import type { Order, OrderLine, OrderPayment, Prisma, PrismaClient } from '../generated/prisma/client.js';

export type { Order, OrderLine, OrderPayment };
export type OrderWithParts = Order & { lines: OrderLine[]; payments: OrderPayment[] };
export type NewOrder = Omit<Prisma.OrderUncheckedCreateInput, 'lines' | 'payments' | 'orderNumber'> & {
  lines: Omit<Prisma.OrderLineUncheckedCreateInput, 'orderId'>[];
};
export type OrderRepository = ReturnType<typeof createOrderRepository>;
export type OrderTransaction = Prisma.TransactionClient;

const withParts = { lines: { orderBy: { position: 'asc' } }, payments: { orderBy: { receivedAt: 'asc' } } } as const;

/** Orders, their lines and payments over Prisma. */
export function createOrderRepository(prisma: PrismaClient) {
  return {
    /**
     * Creates the order under a fresh number; a number already taken (1 in 2^50 per order) draws another.
     * With `guard`, the insert runs in a transaction after it: a pay link locks its row there and checks
     * its uses, so that the check and the insert are one step for concurrent openings.
     */
    async create(order: NewOrder, newNumber: () => string, guard?: (tx: OrderTransaction) => Promise<void>): Promise<OrderWithParts> {
      const { lines, ...fields } = order;
      const insert = (db: OrderTransaction) =>
        db.order.create({ data: { ...fields, orderNumber: newNumber(), lines: { create: lines } }, include: withParts });
      for (let attempt = 0; ; attempt++) {
        try {
          if (!guard) return await insert(prisma);
          // Openings of one link wait for each other's lock: give them longer than Prisma's 2 s to start.
          return await prisma.$transaction(
            async (tx) => {
              await guard(tx);
              return insert(tx);
            },
            { maxWait: 20_000, timeout: 20_000 },
          );
        } catch (error) {
          if (!isUniqueViolation(error) || attempt >= 3) throw error;
        }
      }
    },

    byNumber(orderNumber: string): Promise<OrderWithParts | null> {
      return prisma.order.findUnique({ where: { orderNumber }, include: withParts });
    },

    byId(id: string): Promise<OrderWithParts | null> {
      return prisma.order.findUnique({ where: { id }, include: withParts });
    },

    /**
     * Runs `change` on the order with its row locked (SELECT ... FOR UPDATE), so that payments, a cancel
     * and the watcher's moves on one order happen one after another; answers the order as it then is.
     */
    async locked<T>(orderId: string, change: (tx: OrderTransaction, order: OrderWithParts) => Promise<T>): Promise<T> {
      return prisma.$transaction(async (tx) => {
        await tx.$queryRaw`SELECT id FROM orders WHERE id = ${orderId}::uuid FOR UPDATE`;
        const order = await tx.order.findUnique({ where: { id: orderId }, include: withParts });
        if (!order) throw new AppError('not_found', 'The order is gone');
        return change(tx, order);
      });
    },

    /**
     * A BIP270 payment claims the open, unexpired order for `txid`, in one conditional update (no
     * transaction to wait in): unless another transaction's claim since `staleBefore` holds it. True when
     * the order is now claimed by `txid`.
     */
    async claimPayment(orderId: string, txid: string, now: Date, staleBefore: Date): Promise<boolean> {
      const claimed = await prisma.order.updateMany({
        where: {
          id: orderId,
          status: 'open',
          expiresAt: { gte: now },
          OR: [{ claimedTxid: null }, { claimedTxid: txid }, { claimedAt: null }, { claimedAt: { lt: staleBefore } }],
        },
        data: { claimedTxid: txid, claimedAt: now },
      });
      return claimed.count === 1;
    },

    /** Ends `txid`'s claim on the order, if it still holds it. */
    async releasePaymentClaim(orderId: string, txid: string): Promise<void> {
      await prisma.order.updateMany({ where: { id: orderId, claimedTxid: txid }, data: { claimedTxid: null, claimedAt: null } });
    },

    /** Orders whose address the watcher asks about: open, or expired within the late window, and not fully paid. */
    watched(lateSince: Date, take: number): Promise<OrderWithParts[]> {
      return prisma.order.findMany({
        where: { status: { in: ['open', 'expired'] }, expiresAt: { gt: lateSince } },
        include: withParts,
        orderBy: { expiresAt: 'asc' },
        take,
      });
    },

    /** Paid orders waiting for their payments to be mined. */
    paidUnconfirmed(take: number): Promise<OrderWithParts[]> {
      return prisma.order.findMany({ where: { status: 'paid' }, include: withParts, orderBy: { paidAt: 'asc' }, take });
    },

    /**
     * Open orders past their expiry become expired (a partial payment is kept and flagged). Orders with
     * prepaid cards (paid in part by one, or selling one) are expired one by one with their cards
     * (prepaid/expire-card-orders.ts), not here.
     */
    async expire(now: Date): Promise<string[]> {
      const rows = await prisma.$queryRaw<{ id: string }[]>`
        UPDATE orders SET status = 'expired', updated_at = ${now},
          flags = CASE WHEN paid_satoshis > 0 AND NOT ('paid_partial' = ANY(flags)) THEN array_append(flags, 'paid_partial') ELSE flags END
        WHERE status = 'open' AND expires_at <= ${now} AND card_paid_minor = 0 AND prepaid_card_id IS NULL RETURNING id`;
      return rows.map((row) => row.id);
    },
  };
}
