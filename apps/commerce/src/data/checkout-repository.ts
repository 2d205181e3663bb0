import type { Checkout, Prisma, PrismaClient } from '../generated/prisma/client.js';
import type { CheckoutStatus } from '../checkouts/checkout-status.js';

export type { Checkout };
export type CheckoutRepository = ReturnType<typeof createCheckoutRepository>;

/** Checkouts over Prisma. A checkout is found by its public token within its organisation only. */
export function createCheckoutRepository(prisma: PrismaClient) {
  return {
    create(checkout: Prisma.CheckoutUncheckedCreateInput): Promise<Checkout> {
      return prisma.checkout.create({ data: checkout });
    },

    byToken(organizationId: string, publicToken: string): Promise<Checkout | null> {
      return prisma.checkout.findFirst({ where: { publicToken, organizationId } });
    },

    /** The checkout that opened this pos order, if it is the organisation's (a payment event names both). */
    async byOrderNumber(organizationId: string, orderNumber: string): Promise<Checkout | null> {
      const found = await prisma.checkout.findUnique({ where: { orderNumber } });
      return found?.organizationId === organizationId ? found : null;
    },

    /** Records the order's state as last read; only a change is written. */
    async recordState(
      checkout: Checkout,
      state: { status: CheckoutStatus; paidAt: Date | null; confirmedAt: Date | null },
      now: Date,
    ): Promise<Checkout> {
      const same =
        checkout.status === state.status &&
        checkout.paidAt?.getTime() === state.paidAt?.getTime() &&
        checkout.confirmedAt?.getTime() === state.confirmedAt?.getTime();
      if (same) return checkout;
      return prisma.checkout.update({ where: { id: checkout.id }, data: { ...state, updatedAt: now } });
    },
  };
}
