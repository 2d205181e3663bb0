import { PaymentEvent } from '@ctk/proto/ctk/events/v1/payment_event';
import { inProcessTransport } from '../events/in-process-transport.js';
import { paymentSubject } from '../events/subjects.js';
import type { EventTransport } from '../events/transport.js';
import { eventually } from './eventually.js';

/**
 * Payment events into a consumer the way production delivers them: an in-process transport (give
 * `transport` to startService) on which `publish` puts each event on its subject and waits until the
 * consumer has handled it (acknowledged: posted, a duplicate or parked). Tests seed the journal with it
 * rather than through a way in that production does not have.
 */
export function paymentEventFeed(options: { timeoutMs?: number } = {}) {
  const inner = inProcessTransport({ retryDelayMs: 10 });
  const handled = new Set<string>();
  const transport: EventTransport = {
    publish: (message) => inner.publish(message),
    close: () => inner.close(),
    consume: (durable, handler) =>
      inner.consume(durable, async (message) => {
        await handler(message);
        handled.add(message.id);
      }),
  };
  return {
    transport,
    /** Publishes the events in order and resolves once the consumer has handled every one. */
    async publish(events: readonly PaymentEvent[]): Promise<void> {
      for (const event of events) {
        await inner.publish({ id: event.id, subject: paymentSubject(event.type), data: PaymentEvent.encode(event).finish() });
      }
      await eventually(() => {
        const waiting = events.filter((event) => !handled.has(event.id)).length;
        if (waiting > 0) throw new Error(`${waiting} of ${events.length} payment events are not handled yet`);
      }, options.timeoutMs ?? 30_000);
    },
    close: () => inner.close(),
  };
}
