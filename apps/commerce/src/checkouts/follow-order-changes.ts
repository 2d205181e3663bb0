import { OrderChanged } from '@ctk/proto/ctk/events/v1/order_event';
import { COMMERCE_CONSUMER, ORDER_CHANGED_SUBJECT, type EventHandler, type EventTransport, type Subscription } from '@ctk/shared';
import { settleTicketCheckout } from '../tickets/settle-ticket-checkout.js';
import type { CheckoutContext } from './checkout-context.js';
import { checkoutStateOf } from './checkout-status.js';

export type FollowOutcome = 'recorded' | 'not_a_checkout' | 'not_an_order_change' | 'undecodable';

/**
 * Commerce's durable consumer (COMMERCE_CONSUMER: books has its own, each gets every event): each change of
 * a pos order (ctk.orders.changed) is recorded on the checkout that opened it, so that a status read is one
 * row of commerce's (decision 0046), and a ticket checkout's seats follow (decision 0020): paid, they are sold
 * and the tickets issued, once. Returning acks; throwing (the database unavailable) has the transport deliver
 * the event again, which records nothing twice and issues nothing twice.
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
 * One change: recorded unless a newer one of the order is (its version), then a ticket checkout settled by
 * its status as now recorded, which a redelivery repeats harmlessly (tickets are issued once per checkout).
 */
export async function followOrderChange(context: CheckoutContext, change: OrderChanged): Promise<FollowOutcome> {
  const checkout = await context.checkouts.recordChange(
    change.organizationId,
    { orderNumber: change.orderNumber, version: change.version, ...checkoutStateOf(change) },
    context.now(),
  );
  if (!checkout) return 'not_a_checkout';
  if (checkout.kind === 'tickets') await settleTicketCheckout(context, checkout);
  return 'recorded';
}
