import { headers as natsHeaders } from '@nats-io/transport-node';
import { startNatsConsumer } from './nats-consumer.js';
import { openNatsSession } from './nats-session.js';
import { PAYMENTS_STREAM, STREAM_SUBJECTS } from './subjects.js';
import type { EventLogger, EventTransport, Subscription } from './transport.js';
import { within } from './within.js';

export type NatsTransportOptions = {
  /** e.g. nats://127.0.0.1:4222 */
  url: string;
  logger: EventLogger;
  /** The client's connection name, shown by the server's monitoring. */
  name?: string;
  /** The stream to create or update; the payments stream unless a test wants its own. */
  stream?: { name: string; subjects: string[] };
  /** How long JetStream remembers message ids to drop re-published ones. */
  duplicateWindowMs?: number;
  /** Redelivery of a message neither acked nor nakked (its handler hung or the consumer died). */
  ackWaitMs?: number;
  /** Delay before a failed message comes back; doubles per failure up to maxRetryDelayMs. */
  retryDelayMs?: number;
  maxRetryDelayMs?: number;
  /** How long publish waits for a connection and the server's acknowledgement. */
  publishTimeoutMs?: number;
  reconnectTimeWaitMs?: number;
};

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The production EventTransport over NATS JetStream. Returns at once and connects in the background
 * (publish fails until connected, so the outbox holds events meanwhile); creates the stream if missing.
 * Publishes carry the event id as `Nats-Msg-Id`, so a re-publish within the duplicate window is dropped,
 * and the message's trace context and request id as headers of their own names. Announcements are NATS's
 * core publish and subscribe, outside the stream: kept nowhere.
 */
export async function connectNatsTransport(options: NatsTransportOptions): Promise<EventTransport> {
  const stream = options.stream ?? { name: PAYMENTS_STREAM, subjects: STREAM_SUBJECTS };
  const publishTimeoutMs = options.publishTimeoutMs ?? 5_000;
  const session = openNatsSession({
    url: options.url,
    name: options.name ?? 'ctk',
    logger: options.logger,
    stream: { ...stream, duplicateWindowMs: options.duplicateWindowMs ?? DAY_MS },
    reconnectTimeWaitMs: options.reconnectTimeWaitMs ?? 2_000,
    requestTimeoutMs: publishTimeoutMs,
  });
  const subscriptions = new Set<Subscription>();

  return {
    connected: () => session.connected(),

    async publish(message) {
      const { js } = await within(session.ready, publishTimeoutMs, `NATS is not connected (${options.url})`);
      const headers = natsHeaders();
      for (const [name, value] of Object.entries(message.headers ?? {})) headers.set(name, value);
      await js.publish(message.subject, message.data, {
        msgID: message.id,
        headers,
        timeout: publishTimeoutMs,
        expect: { streamName: stream.name },
      });
    },

    async announce(subject, data) {
      // Not waited for, as an event is: a listener on this broker is not listening meanwhile either.
      if (!session.connected()) throw new Error(`NATS is not connected (${options.url}): nothing announced on ${subject}`);
      const { nc } = await session.ready;
      nc.publish(subject, data);
      await within(nc.flush(), publishTimeoutMs, `NATS did not confirm the announcement on ${subject}`);
    },

    listen(subject, listener) {
      const state = { subscribed: false, stopped: false, subscription: undefined as { unsubscribe(): void } | undefined };
      const unwatch = session.onLost(() => listener.missed());
      void session.ready
        .then(async ({ nc }) => {
          if (state.stopped) return;
          state.subscription = nc.subscribe(subject, {
            callback: (error, message) => {
              if (!error) return listener.heard(message.data);
              // The server closed the subscription (a permission refused): nothing more will be heard.
              state.subscribed = false;
              listener.missed();
            },
          });
          // The server has the subscription once it answers the flush's ping. The client sends it again itself
          // on every reconnect, and the session counts as connected only once the server has answered after that.
          await nc.flush().catch(() => undefined);
          state.subscribed = true;
        })
        .catch(() => undefined);
      return {
        listening: () => state.subscribed && !state.stopped && session.connected(),
        stop() {
          state.stopped = true;
          unwatch();
          state.subscription?.unsubscribe();
        },
      };
    },

    async consume(durable, handler) {
      const consumer = startNatsConsumer({
        ready: session.ready,
        stream: stream.name,
        durable,
        handler,
        logger: options.logger,
        ackWaitMs: options.ackWaitMs ?? 30_000,
        retryDelayMs: options.retryDelayMs ?? 1_000,
        maxRetryDelayMs: options.maxRetryDelayMs ?? 60_000,
        restartDelayMs: options.reconnectTimeWaitMs ?? 2_000,
      });
      const subscription: Subscription = {
        async stop() {
          subscriptions.delete(subscription);
          await consumer.stop();
        },
        pending: () => consumer.pending(),
      };
      subscriptions.add(subscription);
      return subscription;
    },

    async close() {
      await Promise.all([...subscriptions].map((subscription) => subscription.stop()));
      await session.close();
    },
  };
}
