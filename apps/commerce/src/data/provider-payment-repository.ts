import { enqueuePaymentEvent } from '@ctk/shared';
import type { PaymentEvent } from '@ctk/proto/ctk/events/v1/payment_event';
import type { Prisma, PrismaClient, ProviderEvent, ProviderPayment } from '../generated/prisma/client.js';

export type { ProviderEvent, ProviderPayment };
export type ProviderPaymentRepository = ReturnType<typeof createProviderPaymentRepository>;
export type NewProviderEvent = Omit<Prisma.ProviderEventUncheckedCreateInput, 'id' | 'outcome' | 'reason'>;
export type RefundFigures = { refundedMinor: bigint; refundedTax: bigint; deltaMinor: bigint; deltaTax: bigint };

/**
 * Records what became of an event in the transaction: a new row, or, for a parked event applied again
 * (`parkedId`: a redelivery or an admin's apply), its row updated while it is still parked. False: another
 * process moved that row first, and nothing is to be written.
 */
async function recordEvent(
  tx: Prisma.TransactionClient,
  event: NewProviderEvent,
  outcome: 'applied' | 'parked' | 'ignored',
  reason: string,
  parkedId: string | undefined,
): Promise<boolean> {
  if (!parkedId) return (await tx.providerEvent.create({ data: { ...event, outcome, reason } })) !== null;
  const { count } = await tx.providerEvent.updateMany({
    where: { id: parkedId, outcome: 'parked' },
    data: { outcome, reason, checkoutId: event.checkoutId ?? null },
  });
  return count === 1;
}

/**
 * Provider events and payments over Prisma. Each write is one transaction with the event's row, whose
 * unique (organisation, provider, event id) makes a redelivery fail as a whole: a duplicate changes nothing.
 */
export function createProviderPaymentRepository(prisma: PrismaClient) {
  return {
    event(organizationId: string, provider: string, eventId: string): Promise<ProviderEvent | null> {
      return prisma.providerEvent.findUnique({ where: { organizationId_provider_eventId: { organizationId, provider, eventId } } });
    },

    /** An event of the organisation by its id here (not the provider's event id). */
    byId(organizationId: string, id: string): Promise<ProviderEvent | null> {
      return prisma.providerEvent.findFirst({ where: { id, organizationId } });
    },

    byCheckout(checkoutId: string): Promise<ProviderPayment | null> {
      return prisma.providerPayment.findUnique({ where: { checkoutId } });
    },

    byRef(organizationId: string, provider: string, paymentRef: string): Promise<ProviderPayment | null> {
      return prisma.providerPayment.findUnique({ where: { organizationId_provider_paymentRef: { organizationId, provider, paymentRef } } });
    },

    /** An event that changes nothing but itself: parked (with why) or ignored; `parkedId`: it was parked before. */
    async note(event: NewProviderEvent, outcome: 'parked' | 'ignored', reason: string, parkedId?: string): Promise<void> {
      await prisma.$transaction((tx) => recordEvent(tx, event, outcome, reason, parkedId));
    },

    /**
     * The checkout paid: the event, the payment, the checkout's status and the payment event to the outbox,
     * together. A checkout already paid by another event records this one as ignored instead.
     */
    async pay(
      event: NewProviderEvent,
      payment: Omit<Prisma.ProviderPaymentUncheckedCreateInput, 'id'>,
      paymentEvent: (paymentId: string) => PaymentEvent,
      parkedId?: string,
    ): Promise<{ outcome: 'applied' | 'parked' | 'ignored'; reason: string }> {
      return prisma.$transaction(async (tx) => {
        const record = async (outcome: 'applied' | 'parked' | 'ignored', reason: string) =>
          (await recordEvent(tx, event, outcome, reason, parkedId))
            ? { outcome, reason }
            : { outcome: 'ignored' as const, reason: 'applied already' };
        const existing = await tx.providerPayment.findUnique({ where: { checkoutId: payment.checkoutId } });
        if (existing && existing.provider === payment.provider && existing.paymentRef === payment.paymentRef)
          return record('ignored', `the checkout is already paid (${existing.provider} payment ${existing.paymentRef})`);
        // Another payment of a checkout already paid: it counts for nothing, and the merchant refunds it.
        if (existing)
          return record(
            'parked',
            `the checkout is already paid (${existing.provider} payment ${existing.paymentRef}): refund this payment`,
          );
        const { organizationId, provider, paymentRef } = payment;
        const sameRef = await tx.providerPayment.findUnique({
          where: { organizationId_provider_paymentRef: { organizationId, provider, paymentRef } },
        });
        // One provider payment cannot pay two checkouts: the merchant looks into it.
        if (sameRef) return record('parked', `${provider} payment ${paymentRef} already paid another checkout`);
        if (!(await recordEvent(tx, event, 'applied', '', parkedId))) return { outcome: 'ignored', reason: 'applied already' };
        const created = await tx.providerPayment.create({ data: payment });
        await tx.checkout.update({
          where: { id: payment.checkoutId },
          data: { status: 'paid', paidAt: payment.paidAt, updatedAt: payment.paidAt },
        });
        await enqueuePaymentEvent(tx, paymentEvent(created.id));
        return { outcome: 'applied', reason: '' };
      });
    },

    /**
     * A refund: the payment's row locked, `figures` decides from it what is refunded now (undefined: nothing
     * new, the event is ignored), the payment event goes to the outbox. `parkedId`: the event was parked
     * (its payment had not arrived) and is applied now; its row is updated rather than inserted, and if it is
     * no longer parked (another process applied it) nothing happens.
     */
    async refund(
      event: NewProviderEvent,
      paymentId: string,
      figures: (payment: ProviderPayment) => RefundFigures | undefined,
      paymentEvent: (payment: ProviderPayment, figures: RefundFigures, orderNumber: string) => PaymentEvent,
      now: Date,
      parkedId?: string,
    ): Promise<{ outcome: 'applied' | 'ignored'; reason: string }> {
      return prisma.$transaction(async (tx) => {
        await tx.$executeRaw`SELECT 1 FROM provider_payments WHERE id = ${paymentId}::uuid FOR UPDATE`;
        const payment = await tx.providerPayment.findUniqueOrThrow({ where: { id: paymentId } });
        const refund = figures(payment);
        const record = (outcome: 'applied' | 'ignored', reason: string) => recordEvent(tx, event, outcome, reason, parkedId);
        if (!refund) {
          const reason = `nothing more is refunded: ${payment.refundedMinor} of ${payment.amountMinor} already was`;
          await record('ignored', reason);
          return { outcome: 'ignored', reason };
        }
        if (!(await record('applied', ''))) return { outcome: 'ignored', reason: 'applied already' };
        const updated = await tx.providerPayment.update({
          where: { id: paymentId },
          data: { refundedMinor: refund.refundedMinor, refundedTax: refund.refundedTax, refundCount: { increment: 1 }, updatedAt: now },
        });
        if (updated.refundedMinor >= updated.amountMinor) await refundCheckout(tx, updated.checkoutId, now);
        const { orderNumber } = await tx.checkout.findUniqueOrThrow({ where: { id: updated.checkoutId }, select: { orderNumber: true } });
        await enqueuePaymentEvent(tx, paymentEvent(updated, refund, orderNumber));
        return { outcome: 'applied', reason: '' };
      });
    },

    /** The organisation's parked events of a provider, oldest first (at most 100). */
    parked(organizationId: string, provider: string): Promise<ProviderEvent[]> {
      return prisma.providerEvent.findMany({
        where: { organizationId, provider, outcome: 'parked' },
        orderBy: [{ receivedAt: 'asc' }, { id: 'asc' }],
        take: 100,
      });
    },

    /** The organisation's events, newest first, optionally of one outcome. */
    list(organizationId: string, filter: { outcome?: string; before?: Date; limit: number }): Promise<ProviderEvent[]> {
      return prisma.providerEvent.findMany({
        where: {
          organizationId,
          ...(filter.outcome ? { outcome: filter.outcome } : {}),
          ...(filter.before ? { receivedAt: { lt: filter.before } } : {}),
        },
        orderBy: [{ receivedAt: 'desc' }, { id: 'desc' }],
        take: filter.limit,
      });
    },
  };
}

/**
 * Refunded in full: the checkout says `refunded`, and a ticket checkout's seats go back on sale, its tickets
 * void (decision 0020). The checkout's row is locked first, as the sale of its seats locks it
 * (ticket-repository.ts `sell`), so a sale running at the same time cannot issue tickets after this.
 */
async function refundCheckout(tx: Prisma.TransactionClient, checkoutId: string, now: Date) {
  await tx.$queryRaw`SELECT id FROM checkouts WHERE id = ${checkoutId}::uuid FOR UPDATE`;
  await tx.checkout.update({ where: { id: checkoutId }, data: { status: 'refunded', updatedAt: now } });
  await tx.ticketHold.updateMany({
    where: { checkoutId, state: { in: ['held', 'released', 'sold', 'unfulfilled'] } },
    data: { state: 'refunded', updatedAt: now },
  });
}
