import { AppError, prismaQueries, type Org } from '@ctk/shared';
import { takeFromStock } from '../data/item-repository.js';
import { updateOrderWithParts, type OrderWithParts } from '../data/order-repository.js';
import type { OrderContext } from '../orders/order-context.js';
import { releaseOrderHold } from '../orders/order-hold.js';
import { getOrgOrder } from './get-order.js';

const PROVIDERS = new Set(['card-provider', 'wallet-provider', 'stablecoin', 'escrow']);

/**
 * Commerce: the order of a checkout was paid at a card or wallet provider (decisions 0015, 0019), or in the
 * stablecoin through an intent (decision 0036); contracts: a funded escrow holds its payment (decision 0038).
 * Decided with the order's row locked, the lock every bitcoin payment takes to be recorded, so of a bitcoin
 * payment and a provider payment arriving together exactly one counts: an order with a bitcoin payment (in part
 * or in full) is refused, and once `paid_elsewhere` the order takes no bitcoin payment (one arriving anyway is
 * kept and flagged `refund_due`, record-order-payment.ts). The same call again (the same provider and payment)
 * answers the order as it is; another payment of an order paid elsewhere is refused.
 * No payment event: commerce posts the provider's payment and contracts the escrow's release (the books must
 * not see the sale twice); the tracked items' stock is taken as for any sale. Its output's hold ends (decision
 * 0022); the watcher still sees a bitcoin payment to it through the late window and keeps it flagged
 * `refund_due`.
 */
export async function markOrderPaidElsewhere(
  context: OrderContext,
  org: Org,
  input: { orderNumber: string; provider: string; paymentRef: string },
): Promise<OrderWithParts> {
  if (!PROVIDERS.has(input.provider)) throw new AppError('validation_failed', `No provider "${input.provider}"`, { field: 'provider' });
  const found = await getOrgOrder(context, org, input.orderNumber);
  const order = await context.orders.locked(found.id, async (tx, order): Promise<OrderWithParts> => {
    if (order.status === 'paid_elsewhere') {
      if (order.paidElsewhereBy === input.provider && order.paidElsewhereRef === input.paymentRef) return order;
      throw new AppError(
        'failed_precondition',
        `Order ${order.orderNumber} was paid another way (${order.paidElsewhereBy}) first: the ${input.provider} payment is the one to refund`,
        { reason: 'paid_elsewhere' },
      );
    }
    if (order.paidSatoshis > 0n) {
      throw new AppError(
        'failed_precondition',
        `Order ${order.orderNumber} has a bitcoin payment (${order.paidSatoshis} satoshis): it counts, and the ${input.provider} payment is the one to refund`,
        { reason: 'paid_in_bitcoin', paid_satoshis: Number(order.paidSatoshis) },
      );
    }
    if (order.cardPaidMinor > 0n || order.prepaidCardId) {
      throw new AppError(
        'failed_precondition',
        `Order ${order.orderNumber} involves a prepaid card or credits: it is paid at the counter only`,
        {
          reason: 'prepaid_card',
        },
      );
    }
    if (order.creditsTokenId) {
      throw new AppError('failed_precondition', `Order ${order.orderNumber} sells credits: it is paid in bitcoin at the counter only`, {
        reason: 'credits',
      });
    }
    if (order.referralLinkId) {
      throw new AppError(
        'failed_precondition',
        `Order ${order.orderNumber} was sold through a referral link: its payment pays the referrer, in bitcoin only`,
        { reason: 'referral' },
      );
    }
    if (order.status !== 'open' && order.status !== 'expired') {
      throw new AppError(
        'failed_precondition',
        `Order ${order.orderNumber} is ${order.status}: it takes no payment, and the ${input.provider} payment is the one to refund`,
        { reason: order.status },
      );
    }
    const now = context.now();
    const updated = await updateOrderWithParts(prismaQueries(tx), order, {
      status: 'paid_elsewhere',
      paidElsewhereBy: input.provider,
      paidElsewhereRef: input.paymentRef,
      paidAt: now,
      updatedAt: now,
    });
    await takeFromStock(prismaQueries(tx), updated.organizationId, updated.lines);
    return updated;
  });
  context.notifier.changed(order.id);
  // Its change is in the outbox (ctk.orders.changed).
  context.eventsCommitted();
  await releaseOrderHold(context, order);
  return order;
}
