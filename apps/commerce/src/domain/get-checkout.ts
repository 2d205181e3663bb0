import type { OrgRef } from '@ctk/proto/ctk/common/v1/common';
import type { Order } from '@ctk/proto/ctk/pos/v1/pos';
import { AppError, orgOf } from '@ctk/shared';
import type { CheckoutContext } from '../checkouts/checkout-context.js';
import { checkoutStatusOf } from '../checkouts/checkout-status.js';
import { PUBLIC_TOKEN } from '../checkouts/public-token.js';
import type { Checkout } from '../data/checkout-repository.js';
import { settleTicketCheckout } from '../tickets/settle-ticket-checkout.js';
import type { CheckoutWithOrder } from './create-checkout.js';

/**
 * A checkout of the organisation by its public token, with its order as pos has it now; the checkout
 * records the order's state when it changed. Another organisation's token is not found.
 */
export async function getCheckout(
  context: CheckoutContext,
  orgRef: OrgRef | undefined,
  input: { publicToken: string; publicUrl: string },
): Promise<CheckoutWithOrder> {
  const org = orgOf(orgRef);
  const found = PUBLIC_TOKEN.test(input.publicToken) ? await context.checkouts.byToken(org.id, input.publicToken) : null;
  if (!found) throw new AppError('not_found', 'No checkout with this token in this shop');
  const { order } = await context.pos.getOrder({ orderNumber: found.orderNumber, publicUrl: input.publicUrl });
  if (!order) throw new AppError('internal', 'pos answered without the order');
  // Paid through a provider (decision 0019): commerce's row says so (paid, or refunded in full); pos's order
  // is paid_elsewhere, marked so before the payment was recorded here, so no other order has such a row.
  const payment = order.status === 'paid_elsewhere' ? await context.providerPayments.byCheckout(found.id) : null;
  if (payment) {
    // Nothing is due in bitcoin: the provider took the money (paid_satoshis stays what the chain paid, 0).
    const paid = {
      checkout: found,
      order: { ...order, dueSatoshis: 0n, paidAt: found.paidAt?.toISOString() ?? order.paidAt },
      provider: payment.provider,
      refundedMinor: payment.refundedMinor,
    };
    return found.kind === 'tickets' ? { ...paid, tickets: await settleTicketCheckout(context, found) } : paid;
  }
  return followOrder(context, found, order);
}

/**
 * The checkout records its order's state as just read from pos, and a ticket checkout's seats follow it
 * (paid: sold and tickets issued, once; expired or cancelled: released). The one rule both the status
 * read and pos's `payment.received` (settle-on-payment.ts) apply, under settleTicketCheckout's locks.
 */
export async function followOrder(context: CheckoutContext, found: Checkout, order: Order): Promise<CheckoutWithOrder> {
  const checkout = await context.checkouts.recordState(
    found,
    { status: checkoutStatusOf(order.status), paidAt: timeOrNull(order.paidAt), confirmedAt: timeOrNull(order.confirmedAt) },
    context.now(),
  );
  if (checkout.kind !== 'tickets') return { checkout, order };
  return { checkout, order, tickets: await settleTicketCheckout(context, checkout) };
}

const timeOrNull = (text: string | undefined) => (text ? new Date(text) : null);
