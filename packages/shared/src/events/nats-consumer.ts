import type { ConsumerMessages, JsMsg } from '@nats-io/jetstream';
import { carriedHeaders } from '../tracing/context.js';
import type { NatsSession } from './nats-session.js';
import { ensureConsumer } from './nats-setup.js';
import { retryDelay } from './retry-delay.js';
import type { EventHandler, EventLogger, Subscription } from './transport.js';
import { Wakeup } from './wakeup.js';

export type NatsConsumerOptions = {
  ready: Promise<NatsSession>;
  stream: string;
  durable: string;
  handler: EventHandler;
  logger: EventLogger;
  ackWaitMs: number;
  retryDelayMs: number;
  maxRetryDelayMs: number;
  /** Pause before starting over when the consume loop ends unexpectedly (e.g. the consumer was deleted). */
  restartDelayMs: number;
};

/** Messages fetched ahead of the handlers: small, so none waits near ack_wait behind the others. */
const PREFETCH = 32;
/**
 * Messages handled at once. Payment events are independent (books dedups by event id and orders entries
 * by their time), so a handful in flight keeps the database busy instead of waiting on each round trip.
 */
const CONCURRENCY = 16;

/**
 * Runs the handler on the messages of a durable pull consumer, up to CONCURRENCY at a time: ack on
 * success, nak with a growing delay on failure. The client's consume() rides out reconnects; if it ends anyway, this starts
 * over (re-creating the consumer if it was deleted) until stopped.
 */
export function startNatsConsumer(options: NatsConsumerOptions): Required<Subscription> {
  const { logger, durable } = options;
  const wakeup = new Wakeup();
  let stopped = false;
  let messages: ConsumerMessages | undefined;
  let abandon!: (reason: Error) => void;
  const abandoned = new Promise<never>((_, reject) => (abandon = reject));
  abandoned.catch(() => undefined);

  async function handle(message: JsMsg): Promise<void> {
    if (stopped) return message.nak();
    const deliveryCount = message.info.deliveryCount;
    const id = message.headers?.get('Nats-Msg-Id') || `${message.info.stream}:${message.seq}`;
    try {
      await options.handler({
        id,
        subject: message.subject,
        data: message.data,
        deliveryCount,
        headers: carriedHeaders((name) => message.headers?.get(name)),
      });
      message.ack();
    } catch (error) {
      const delay = retryDelay(deliveryCount, options.retryDelayMs, options.maxRetryDelayMs);
      message.nak(delay);
      logger.warn({ err: error, durable, id, deliveryCount, retryInMs: delay }, 'event handler failed; will redeliver');
    }
  }

  async function consumeOnce(): Promise<void> {
    // Stopping must not wait for a connection that may never come.
    const { js, jsm } = await Promise.race([options.ready, abandoned]);
    await ensureConsumer(jsm, { stream: options.stream, durable, ackWaitMs: options.ackWaitMs });
    const consumer = await js.consumers.get(options.stream, durable);
    messages = await consumer.consume({ max_messages: PREFETCH });
    if (stopped) messages.stop();
    const inFlight = new Set<Promise<void>>();
    try {
      for await (const message of messages) {
        const handling = handle(message).finally(() => inFlight.delete(handling));
        inFlight.add(handling);
        if (inFlight.size >= CONCURRENCY) await Promise.race(inFlight);
      }
    } finally {
      await Promise.all(inFlight);
    }
  }

  const running = (async () => {
    while (!stopped) {
      await consumeOnce().catch((error: unknown) => {
        if (!stopped) logger.warn({ err: error, durable }, 'event consumer interrupted; starting over');
      });
      if (!stopped) await wakeup.wait(options.restartDelayMs);
    }
  })();

  return {
    async stop() {
      stopped = true;
      abandon(new Error('consumer stopped'));
      wakeup.notify();
      messages?.stop();
      await running;
    },
    /** The consumer's num_pending (not yet delivered) and num_ack_pending (delivered, not yet acknowledged), as the server counts them. */
    async pending() {
      const { jsm } = await options.ready;
      const info = await jsm.consumers.info(options.stream, durable);
      return info.num_pending + info.num_ack_pending;
    },
  };
}
