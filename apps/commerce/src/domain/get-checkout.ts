import type { OrgRef } from '@ctk/proto/ctk/common/v1/common';
import { Order } from '@ctk/proto/ctk/pos/v1/pos';
import { AppError, orgOf } from '@ctk/shared';
import type { CheckoutContext } from '../checkouts/checkout-context.js';
import { checkoutStateOf, type CheckoutStatus } from '../checkouts/checkout-status.js';
import { PUBLIC_TOKEN } from '../checkouts/public-token.js';
import type { Checkout } from '../data/checkout-repository.js';
import type { CheckoutWithOrder } from './create-checkout.js';

/**
 * A checkout of the organisation by its public token, with its order's state: a read that writes nothing and
 * locks nothing (decision 0046), answered from commerce's rows alone (decision 0055). The checkout records
 * each change of its order (follow-order-changes.ts), a ticket checkout's tickets issued with that record;
 * before the order's event stream sends a final state, the gateway has it recorded (follow-order.ts), so the
 * read that follows the stream says so too. Another organisation's token is not found.
 */
export async function getCheckout(
  context: CheckoutContext,
  orgRef: OrgRef | undefined,
  input: { publicToken: string },
): Promise<CheckoutWithOrder> {
  const org = orgOf(orgRef);
  const found = PUBLIC_TOKEN.test(input.publicToken) ? await context.checkouts.byToken(org.id, input.publicToken) : null;
  if (!found) throw new AppError('not_found', 'No checkout with this token in this shop');
  const now = context.now();
  const current = await withOrderState(context, found);
  const checkout = { ...current, status: statusAt(current, now) };
  const paid = checkout.status === 'paid' || checkout.status === 'confirmed';
  // Paid through a provider (decision 0019): its row says which, and what it refunded; the order was paid_elsewhere.
  const payment = paid || checkout.status === 'refunded' ? await context.providerPayments.byCheckout(checkout.id) : null;
  const answer: CheckoutWithOrder = { checkout, order: orderStateOf(checkout, now) };
  if (payment) Object.assign(answer, { provider: payment.provider, refundedMinor: payment.refundedMinor });
  if (checkout.kind === 'tickets') answer.tickets = paid ? await context.tickets.ticketsOf(checkout.id) : [];
  return answer;
}

/**
 * The checkout with its order's state as recorded. A checkout made before checkouts followed their orders
 * (`followsOrder` false) takes pos's state until its order's next change is recorded.
 */
async function withOrderState(context: CheckoutContext, found: Checkout): Promise<Checkout> {
  if (found.followsOrder) return found;
  const { state } = await context.pos.getOrderState({ orderNumber: found.orderNumber });
  if (!state || state.organizationId !== found.organizationId) throw new AppError('internal', 'pos answered another order');
  // Refunded in full at its provider (decision 0019): that stays.
  return found.status === 'refunded' ? found : { ...found, ...checkoutStateOf(state) };
}

/** As pos's own reads derive it: a checkout pending past its order's expiry is expired (its order emits no change then). */
function statusAt(checkout: Checkout, now: Date): CheckoutStatus {
  const status = checkout.status as CheckoutStatus;
  return status === 'pending' && now > checkout.expiresAt ? 'expired' : status;
}

/**
 * The order's state as the status answers it: what it costs and what was paid, in satoshis; what is still
 * due while it takes payment (nothing once paid, expired or cancelled, nor when a provider took the money).
 */
function orderStateOf(checkout: Checkout & { status: CheckoutStatus }, now: Date): Order {
  const due = checkout.status === 'pending' && now <= checkout.expiresAt ? checkout.satoshis - checkout.paidSatoshis : 0n;
  return Order.fromPartial({
    orderNumber: checkout.orderNumber,
    currency: checkout.currency,
    totalMinor: checkout.totalMinor,
    taxMinor: checkout.taxMinor,
    satoshis: checkout.satoshis,
    paidSatoshis: checkout.paidSatoshis,
    dueSatoshis: due > 0n ? due : 0n,
    createdAt: checkout.createdAt.toISOString(),
    expiresAt: checkout.expiresAt.toISOString(),
    ...(checkout.paidAt ? { paidAt: checkout.paidAt.toISOString() } : {}),
    ...(checkout.confirmedAt ? { confirmedAt: checkout.confirmedAt.toISOString() } : {}),
  });
}
