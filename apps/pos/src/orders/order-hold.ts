import type { OrderContext } from './order-context.js';

/** p2p holds a destination at most this long (AllocateDestination's cap). */
const MAX_HOLD_MS = 7 * 86_400_000;
const PURPOSE = 'pos.order';

/**
 * Until when the order's output is held for it alone (decision 0022): while the watcher would still settle a
 * payment to it, its expiry plus the late-payment window, within p2p's cap of 7 days.
 */
export function holdUntil(createdAt: Date, expiresAt: Date, latePaymentSeconds: number): Date {
  return new Date(Math.min(expiresAt.getTime() + latePaymentSeconds * 1000, createdAt.getTime() + MAX_HOLD_MS));
}

/** What AllocateDestination is asked for an order's output. */
export function orderHold(context: Pick<OrderContext, 'latePaymentSeconds'>, createdAt: Date, expiresAt: Date) {
  return { expiresAt: holdUntil(createdAt, expiresAt, context.latePaymentSeconds).toISOString(), purpose: PURPOSE };
}

type HeldOrder = {
  organizationId: string;
  merchantHandle: string;
  orderNumber: string;
  derivationIndex: number | null;
  createdAt: Date;
  expiresAt: Date;
};

/**
 * The order was cancelled or paid by other means (a provider, gift cards): a payment to its output could
 * only be refunded, so its hold ends now rather than at its expiry plus the late window, and the child may
 * go to another order when no child has been free longer (decision 0022). Until then the watcher still sees
 * a late payment to it and keeps it for a refund. After the order's change has committed; a failure leaves
 * the hold to end by itself, as before.
 */
export async function releaseOrderHold(context: OrderContext, order: HeldOrder): Promise<void> {
  if (order.derivationIndex === null) return;
  await context.p2p
    .releaseDestination({
      org: { id: order.organizationId, handle: order.merchantHandle },
      derivationIndex: order.derivationIndex,
      ...orderHold(context, order.createdAt, order.expiresAt),
    })
    .catch((error: unknown) =>
      context.logger.warn({ err: error, order: order.orderNumber }, 'could not end the hold of an order output; it ends at its time'),
    );
}
