import { AppError, type Org } from '@ctk/shared';
import type { OrderRefund, OrderWithParts } from '../data/order-repository.js';
import { updateRefund } from '../data/refund-repository.js';
import type { OrderContext } from '../orders/order-context.js';
import { isClaimed } from '../refunds/refund-state.js';
import { organisationRefund } from './get-refund.js';

/**
 * Admin: a pending refund that will not be paid (decision 0033): cancelled with its order's row locked, it
 * releases what it reserved. Cancelling twice answers the cancelled refund; a paid one, or one whose payment
 * is being broadcast, is refused (409).
 */
export async function cancelRefund(
  context: OrderContext,
  org: Org,
  refundId: string,
): Promise<{ refund: OrderRefund; order: OrderWithParts }> {
  const found = await organisationRefund(context, org, refundId);
  const done = await context.orders.locked(
    found.orderId,
    async (tx, order) => {
      const refund = order.refunds.find((known) => known.id === found.id)!;
      if (refund.status === 'cancelled') return { refund, order };
      if (refund.status === 'paid') {
        throw new AppError('failed_precondition', `Refund ${refund.id} is paid (transaction ${refund.txid}): it cannot be cancelled`, {
          reason: 'paid',
        });
      }
      const now = context.now();
      if (isClaimed(refund, now)) {
        throw new AppError(
          'failed_precondition',
          `Refund ${refund.id} is being paid by transaction ${refund.claimedTxid}: it cannot be cancelled now; try again in a moment`,
          { reason: 'being_paid' },
        );
      }
      const cancelled = await updateRefund(tx, refund.id, { status: 'cancelled', cancelledAt: now, claimedTxid: null, claimedAt: null });
      return {
        refund: cancelled,
        order: { ...order, refunds: order.refunds.map((known) => (known.id === refund.id ? cancelled : known)) },
      };
    },
    { patient: true },
  );
  context.notifier.changed(found.orderId);
  return done;
}
