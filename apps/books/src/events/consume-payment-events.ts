import { createHash } from 'node:crypto';
import { PaymentEvent } from '@ctk/proto/ctk/events/v1/payment_event';
import { BOOKS_CONSUMER, isOrderSubject, type EventHandler, type EventMessage, type EventTransport, type Subscription } from '@ctk/shared';
import { postPaymentEvent, type PostingDeps, type PostOutcome } from '../domain/post-payment-event.js';

/**
 * Posts each payment event the transport delivers to the books durable consumer. Returning acks the
 * message: it was posted, was a duplicate, or was parked. Throwing (the database is unavailable, say)
 * leaves it to the transport to deliver again later, so nothing is lost and the unique event id keeps a
 * redelivery from posting twice.
 */
export function consumePaymentEvents(transport: EventTransport, deps: PostingDeps): Promise<Subscription> {
  return transport.consume(BOOKS_CONSUMER, paymentEventHandler(deps));
}

/**
 * The handler on its own: decode, then post; what cannot be decoded is parked and acked, never retried. It
 * answers the outcome (posted, duplicate, parked), which the bootstrap counts in ctk_events_consumed_total.
 * The stream's order subjects (pos's order changes) are not books' to post: acked as `not_a_payment`.
 */
function paymentEventHandler(deps: PostingDeps): EventHandler {
  return async (message) => {
    if (isOrderSubject(message.subject)) return 'not_a_payment';
    const event = decode(message);
    if ('reason' in event) {
      await parkUndecodable(deps, message, event.reason);
      return 'parked';
    }
    const outcome: PostOutcome = await postPaymentEvent(deps, event);
    if (message.deliveryCount && message.deliveryCount > 1) {
      deps.logger.info(
        { eventId: event.id, messageId: message.id, deliveryCount: message.deliveryCount, outcome },
        'payment event redelivered',
      );
    }
    return outcome;
  };
}

function decode(message: EventMessage): PaymentEvent | { reason: string } {
  try {
    return PaymentEvent.decode(message.data);
  } catch (error) {
    return { reason: `not a ctk.events.v1.PaymentEvent: ${error instanceof Error ? error.message : String(error)}` };
  }
}

/**
 * Kept under a hash of its bytes, as an event without a usable id is (the message id may be any
 * string, and may even belong to a good event), so redelivering the same bytes parks them once.
 */
async function parkUndecodable(deps: PostingDeps, message: EventMessage, problem: string): Promise<void> {
  const eventId = `sha256:${createHash('sha256').update(message.data).digest('hex')}`;
  const reason = `${problem} (message ${message.id} on ${message.subject})`;
  const parkedNow = await deps.parked.park({ eventId, organizationId: '', reason, payload: Uint8Array.from(message.data) });
  const fields = { eventId, messageId: message.id, subject: message.subject, reason };
  if (parkedNow) deps.logger.error(fields, 'payment event parked: it cannot be decoded');
  else deps.logger.warn(fields, 'undecodable payment event delivered again; it stays parked');
}
