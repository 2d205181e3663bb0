import { PaymentEvent, PaymentEventType } from '@ctk/proto/ctk/events/v1/payment_event';
import { AppError, COMMERCE_CONSUMER, type EventHandler, type EventTransport, type Subscription } from '@ctk/shared';
import type { CheckoutContext } from '../checkouts/checkout-context.js';
import { followOrder } from '../domain/get-checkout.js';

export type SettleOutcome = 'settled' | 'not_a_ticket_checkout';

/**
 * Commerce's own durable consumer of payment events (COMMERCE_CONSUMER: books has its own, each gets
 * every event). A ticket checkout is settled when pos says its order was paid, whether or not anyone
 * reads its status (decision 0020). Returning acks; throwing (pos or the database unavailable) has the
 * transport deliver the event again, which settles nothing twice.
 */
export function consumePaymentsForTickets(transport: EventTransport, context: CheckoutContext): Promise<Subscription> {
  return transport.consume(COMMERCE_CONSUMER, settleOnPaymentHandler(context));
}

/** The handler: answers its outcome (settled, not_a_ticket_checkout, undecodable), counted in ctk_events_consumed_total. */
export function settleOnPaymentHandler(context: CheckoutContext): EventHandler {
  return async (message) => {
    let event: PaymentEvent;
    try {
      event = PaymentEvent.decode(message.data);
    } catch (error) {
      // Books parks what cannot be decoded; commerce has nothing to settle from it.
      context.logger.warn({ err: error, messageId: message.id, subject: message.subject }, 'undecodable payment event skipped');
      return 'undecodable';
    }
    const outcome = await settleOnPayment(context, event);
    if (outcome === 'settled' || (message.deliveryCount ?? 1) > 1) {
      context.logger.info(
        { eventId: event.id, orderNumber: event.sourceReference, deliveryCount: message.deliveryCount, outcome },
        'payment event for a ticket checkout',
      );
    }
    return outcome;
  };
}

/**
 * A pos order paid (`payment.received`, naming the order's number in `source_reference`): if it is a
 * ticket checkout's, the checkout follows its order as read from pos now, exactly as the status read does
 * (followOrder): the seats are sold and the tickets issued once, under the checkout's row lock, so an
 * event, its redelivery and a status read at the same time issue them once. A checkout paid through a
 * provider is left to the status read (decision 0019), as that read leaves its seats.
 */
export async function settleOnPayment(context: CheckoutContext, event: PaymentEvent): Promise<SettleOutcome> {
  if (event.type !== PaymentEventType.PAYMENT_EVENT_TYPE_PAYMENT_RECEIVED || event.sourceService !== 'pos' || !event.sourceReference) {
    return 'not_a_ticket_checkout';
  }
  const found = await context.checkouts.byOrderNumber(event.organizationId, event.sourceReference);
  if (!found || found.kind !== 'tickets' || (await context.providerPayments.byCheckout(found.id))) return 'not_a_ticket_checkout';
  // The order's URLs are not answered to anyone here: no public URL is needed to read its state.
  const { order } = await context.pos.getOrder({ orderNumber: found.orderNumber, publicUrl: '' });
  if (!order) throw new AppError('internal', 'pos answered without the order');
  await followOrder(context, found, order);
  return 'settled';
}
