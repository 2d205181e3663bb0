import type { Checkout, Prisma, PrismaClient } from '../generated/prisma/client.js';
import type { CheckoutStatus } from '../checkouts/checkout-status.js';

export type { Checkout };
export type CheckoutRepository = ReturnType<typeof createCheckoutRepository>;

/** Checkouts over Prisma. A checkout is found by its public token within its organisation only. */
export function createCheckoutRepository(prisma: PrismaClient) {
  /** The checkout that opened this pos order, if it is the organisation's (an order's change names both). */
  async function byOrderNumber(organizationId: string, orderNumber: string): Promise<Checkout | null> {
    const found = await prisma.checkout.findUnique({ where: { orderNumber } });
    return found?.organizationId === organizationId ? found : null;
  }

  return {
    create(checkout: Prisma.CheckoutUncheckedCreateInput): Promise<Checkout> {
      return prisma.checkout.create({ data: checkout });
    },

    byToken(organizationId: string, publicToken: string): Promise<Checkout | null> {
      return prisma.checkout.findFirst({ where: { publicToken, organizationId } });
    },

    byOrderNumber,

    /**
     * Records an order's change (ctk.orders.changed, decision 0046) on its checkout, unless a newer change
     * of the order is recorded already; a checkout refunded at its provider stays refunded. Answers the
     * checkout as it now is, or null when the order opened no checkout of the organisation (a counter order).
     */
    async recordChange(organizationId: string, change: OrderChange, now: Date): Promise<Checkout | null> {
      const { orderNumber, version, ...state } = change;
      await prisma.checkout.updateMany({
        where: { orderNumber, organizationId, orderVersion: { lt: version }, status: { not: 'refunded' } },
        data: { ...state, orderVersion: version, followsOrder: true, updatedAt: now },
      });
      return byOrderNumber(organizationId, orderNumber);
    },
  };
}

/** A change of an order's state, counted by its version, as a checkout records it. */
export type OrderChange = {
  orderNumber: string;
  version: bigint;
  status: CheckoutStatus;
  satoshis: bigint;
  paidSatoshis: bigint;
  paidAt: Date | null;
  confirmedAt: Date | null;
};
