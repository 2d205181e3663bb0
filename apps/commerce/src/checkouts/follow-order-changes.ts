import { OrderChanged } from '@ctk/proto/ctk/events/v1/order_event';
import { COMMERCE_CONSUMER, ORDER_CHANGED_SUBJECT, type EventHandler, type EventTransport, type Subscription } from '@ctk/shared';
import { settleTicketCheckout } from '../tickets/settle-ticket-checkout.js';
import type { CheckoutContext } from './checkout-context.js';
import { checkoutStateOf } from './checkout-status.js';

export type FollowOutcome = 'recorded' | 'not_a_checkout' | 'not_an_order_change' | 'undecodable';

/**
 * Commerce's durable consumer (COMMERCE_CONSUMER: books has its own, each gets every event): each change of
 * a pos order (ctk.orders.changed) is recorded on the checkout that opened it, so that the status read need
 * not settle anything (decision 0046), and a ticket checkout's seats follow (decision 0020): paid, they are
 * sold and the tickets issued, once. Returning acks; throwing (the database unavailable) has the transport
 * deliver the event again, which records nothing twice and issues nothing twice.
 */
export function followOrderChanges(transport: EventTransport, context: CheckoutContext): Promise<Subscription> {
  return transport.consume(COMMERCE_CONSUMER, orderChangeHandler(context));
}

/** The handler: answers its outcome, counted in ctk_events_consumed_total. The stream's payment events are not its. */
export function orderChangeHandler(context: CheckoutContext): EventHandler {
  return async (message) => {
    if (message.subject !== ORDER_CHANGED_SUBJECT) return 'not_an_order_change';
    let change: OrderChanged;
    try {
      change = OrderChanged.decode(message.data);
    } catch (error) {
      context.logger.warn({ err: error, messageId: message.id, subject: message.subject }, 'undecodable order change skipped');
      return 'undecodable';
    }
    return followOrderChange(context, change);
  };
}

/**
 * One change: recorded unless a newer one of the order is (its version). A ticket checkout's seats follow the
 * change first (paid: sold and the tickets issued, once; expired or cancelled: given back), so that its
 * status never says paid before its tickets exist; a redelivery, or a change older than one recorded, settles
 * nothing again (seats are sold once, a sold seat is never given back, and a cancelled order is never paid).
 */
export async function followOrderChange(context: CheckoutContext, change: OrderChanged): Promise<FollowOutcome> {
  const checkout = await context.checkouts.byOrderNumber(change.organizationId, change.orderNumber);
  if (!checkout) return 'not_a_checkout';
  const state = checkoutStateOf(change);
  // Refunded in full at its provider (decision 0019): its seats were given back with the refund.
  if (checkout.kind === 'tickets' && checkout.status !== 'refunded') await settleTicketCheckout(context, { ...checkout, ...state });
  await context.checkouts.recordChange(checkout.id, change.version, state, context.now());
  return 'recorded';
}
