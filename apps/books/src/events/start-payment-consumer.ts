import { connectNatsTransport, type EventTransport, type Logger } from '@ctk/shared';
import type { PostingDeps } from '../domain/post-payment-event.js';
import { consumePaymentEvents } from './consume-payment-events.js';

export type PaymentConsumerSource = {
  /** A transport of the caller's (in-process in the embedded default, or a test's): consumed, never closed here. */
  transport?: EventTransport | undefined;
  /** Otherwise, NATS JetStream at this URL, on a connection of books' own. */
  natsUrl?: string | undefined;
};

/**
 * Starts the books consumer on whichever source is configured, or none: then events reach books only
 * through BooksService.PostPaymentEvent. stop() lets the message in hand finish, then releases what
 * this started.
 */
export async function startPaymentConsumer(
  source: PaymentConsumerSource,
  deps: PostingDeps,
  logger: Logger,
): Promise<{ stop(): Promise<void> }> {
  if (source.transport) {
    const subscription = await consumePaymentEvents(source.transport, deps);
    return { stop: () => subscription.stop() };
  }
  if (source.natsUrl) {
    const transport = await connectNatsTransport({ url: source.natsUrl, logger, name: 'books' });
    const subscription = await consumePaymentEvents(transport, deps).catch(async (error: unknown) => {
      await transport.close();
      throw error;
    });
    return {
      async stop() {
        await subscription.stop();
        await transport.close();
      },
    };
  }
  logger.info({}, 'NATS_URL is not set: payment events arrive only through BooksService.PostPaymentEvent');
  return { stop: async () => undefined };
}
