import { AppError, prismaQueries, type Org } from '@ctk/shared';
import { updateOrderWithParts, type OrderWithParts } from '../data/order-repository.js';
import type { OrderContext } from '../orders/order-context.js';
import { releaseOrderHold } from '../orders/order-hold.js';
import { beingPaid, isClaimedByAnother } from '../orders/payment-claim.js';
import { restoreReward } from '../loyalty/order-reward.js';
import { releaseOrderCards } from '../prepaid/release-order-cards.js';
import { getOrgOrder } from './get-order.js';

/**
 * Staff: an open order that will not be paid. Nothing may have been paid; cancelling twice answers the
 * cancelled order. Prepaid card uses on it are restored, and a card it sells is void (decision 0017); the
 * stamps a loyalty reward on it spent go back to the card (decision 0023), in the same transaction, so once.
 * Its output's hold then ends (decision 0022): a payment to it could only be refunded.
 */
export async function cancelOrder(context: OrderContext, org: Org, orderNumber: string): Promise<OrderWithParts> {
  const found = await getOrgOrder(context, org, orderNumber);
  const order = await context.orders.locked(found.id, async (tx, order): Promise<OrderWithParts> => {
    if (order.status === 'cancelled') return order;
    if (order.paidSatoshis > 0n) {
      throw new AppError(
        'failed_precondition',
        `Order ${order.orderNumber} has a payment (${order.paidSatoshis} satoshis): it cannot be cancelled`,
      );
    }
    if (order.status !== 'open' && order.status !== 'expired') {
      throw new AppError('failed_precondition', `Order ${order.orderNumber} is ${order.status}: it cannot be cancelled`);
    }
    const now = context.now();
    // A payment being broadcast would reach the chain for a cancelled order.
    if (isClaimedByAnother(order, now)) throw beingPaid(order, 'it cannot be cancelled now');
    const released = await releaseOrderCards(prismaQueries(tx), order, now);
    await restoreReward(tx, order, now);
    return updateOrderWithParts(prismaQueries(tx), order, {
      status: 'cancelled',
      cancelledAt: now,
      updatedAt: now,
      ...released.changes,
    });
  });
  context.notifier.changed(order.id);
  // The cancel is in the outbox (ctk.orders.changed), with any card given back.
  context.eventsCommitted();
  await releaseOrderHold(context, order);
  return order;
}
