import { EventEmitter } from 'node:events';
import { retryDelay } from './retry-delay.js';
import type { EventHandler, EventLogger, EventMessage, EventTransport, Subscription } from './transport.js';
import { Wakeup } from './wakeup.js';

export type InProcessTransportOptions = {
  logger?: EventLogger;
  /** First redelivery delay after a handler failed; doubles per failure up to maxRetryDelayMs. */
  retryDelayMs?: number;
  maxRetryDelayMs?: number;
};

type Delivery = { message: EventMessage; deliveries: number; dueAt: number };
type Durable = { pending: Delivery[]; wakeup: Wakeup };

/**
 * The embedded default's transport: JetStream's semantics within one process. Every message is kept
 * (a durable that subscribes later still gets all of them), each durable name gets each message until a
 * handler succeeds, failures come back after a growing delay without holding up later messages, and
 * an id published again is ignored. Nothing survives a restart: the outbox is what makes that safe.
 * An announcement reaches every listener of the process before `announce` resolves, and none is ever missed.
 */
export function inProcessTransport(options: InProcessTransportOptions = {}): EventTransport {
  const { logger, retryDelayMs = 100, maxRetryDelayMs = 10_000 } = options;
  const published: EventMessage[] = [];
  const publishedIds = new Set<string>();
  const durables = new Map<string, Durable>();
  const subscriptions = new Set<Subscription>();
  const announcements = new EventEmitter().setMaxListeners(0);
  let closed = false;

  function durable(name: string): Durable {
    let found = durables.get(name);
    if (!found) {
      found = { pending: published.map((message) => ({ message, deliveries: 0, dueAt: 0 })), wakeup: new Wakeup() };
      durables.set(name, found);
    }
    return found;
  }

  async function deliver(name: string, entry: Delivery, handler: EventHandler, queue: Durable): Promise<void> {
    entry.deliveries += 1;
    try {
      await handler({ ...entry.message, deliveryCount: entry.deliveries });
    } catch (error) {
      entry.dueAt = Date.now() + retryDelay(entry.deliveries, retryDelayMs, maxRetryDelayMs);
      queue.pending.push(entry);
      logger?.warn(
        { err: error, durable: name, id: entry.message.id, deliveryCount: entry.deliveries },
        'event handler failed; will redeliver',
      );
    }
  }

  async function run(name: string, handler: EventHandler, stopped: () => boolean): Promise<void> {
    const queue = durable(name);
    while (!stopped()) {
      const now = Date.now();
      const index = queue.pending.findIndex((entry) => entry.dueAt <= now);
      if (index < 0) {
        const next = Math.min(...queue.pending.map((entry) => entry.dueAt));
        await queue.wakeup.wait(next - now);
        continue;
      }
      const [entry] = queue.pending.splice(index, 1);
      await deliver(name, entry!, handler, queue);
    }
  }

  return {
    async publish(message) {
      if (closed) throw new Error('in-process transport is closed');
      if (publishedIds.has(message.id)) return;
      const kept: EventMessage = {
        id: message.id,
        subject: message.subject,
        data: Uint8Array.from(message.data),
        ...(message.headers ? { headers: { ...message.headers } } : {}),
      };
      publishedIds.add(kept.id);
      published.push(kept);
      for (const queue of durables.values()) {
        queue.pending.push({ message: kept, deliveries: 0, dueAt: 0 });
        queue.wakeup.notify();
      }
    },

    async consume(name, handler) {
      if (closed) throw new Error('in-process transport is closed');
      let stopped = false;
      const running = run(name, handler, () => stopped);
      const subscription: Subscription = {
        async stop() {
          stopped = true;
          durable(name).wakeup.notify();
          await running;
          subscriptions.delete(subscription);
        },
      };
      subscriptions.add(subscription);
      return subscription;
    },

    async announce(subject, data) {
      if (closed) throw new Error('in-process transport is closed');
      announcements.emit(subject, Uint8Array.from(data));
    },

    listen(subject, listener) {
      const heard = (data: Uint8Array) => listener.heard(data);
      announcements.on(subject, heard);
      return { listening: () => !closed, stop: () => announcements.off(subject, heard) };
    },

    async close() {
      closed = true;
      await Promise.all([...subscriptions].map((subscription) => subscription.stop()));
    },
  };
}
