import { openEventTransport, type EventTransport, type Logger } from '@ctk/shared';
import type { PostingDeps } from '../domain/post-payment-event.js';
import { consumePaymentEvents } from './consume-payment-events.js';

export type PaymentConsumerSource = { transport?: EventTransport | undefined; natsUrl?: string | undefined };

/**
 * Starts the books consumer on whichever source is configured (a transport of the caller's, consumed but
 * never closed here, else NATS_URL on a connection of books' own), or none: then events reach books only
 * through BooksService.PostPaymentEvent. stop() lets the message in hand finish, then releases what
 * this started.
 */
export async function startPaymentConsumer(
  source: PaymentConsumerSource,
  deps: PostingDeps,
  logger: Logger,
): Promise<{ stop(): Promise<void> }> {
  const events = await openEventTransport({ ...source, name: 'books', logger });
  if (!events.transport) {
    logger.info({}, 'NATS_URL is not set: payment events arrive only through BooksService.PostPaymentEvent');
    return { stop: async () => undefined };
  }
  const subscription = await consumePaymentEvents(events.transport, deps).catch(async (error: unknown) => {
    await events.close();
    throw error;
  });
  return {
    async stop() {
      await subscription.stop();
      await events.close();
    },
  };
}
