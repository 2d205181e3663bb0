import { EventEmitter } from 'node:events';
import { retryDelay } from './retry-delay.js';
import type { EventHandler, EventLogger, EventMessage, EventTransport, Subscription } from './transport.js';
import { Wakeup } from './wakeup.js';

export type InProcessTransportOptions = {
  logger?: EventLogger;
  /** First redelivery delay after a handler failed; doubles per failure up to maxRetryDelayMs. */
  retryDelayMs?: number;
  maxRetryDelayMs?: number;
  /**
   * The durable consumers it carries (the embedded default: the registry's, consumersOf). Each gets every message published
   * from the transport's creation, even before it subscribes, and a message is let go once each has handled it;
   * another durable name is refused. Unset, every message is kept for the life of the process, so that a durable
   * of any name subscribing at any time gets all of them (tests).
   */
  durables?: readonly string[];
  /** How long a published id is remembered, so that publishing it again is ignored (a day, as on NATS). */
  duplicateWindowMs?: number;
};

type Delivery = { message: EventMessage; deliveries: number; dueAt: number };
/** A durable's messages: those not yet delivered in order, and those that failed, each due again at its time. */
type Durable = { ready: Delivery[]; retrying: Delivery[]; wakeup: Wakeup };

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The embedded default's transport: JetStream's semantics within one process. Each durable name gets each
 * message until a handler succeeds, failures come back after a growing delay without holding up later
 * messages, and an id published again within the duplicate window is ignored. Nothing survives a restart: the
 * outbox is what makes that safe. An announcement reaches every listener of the process before `announce`
 * resolves, and none is ever missed.
 */
export function inProcessTransport(options: InProcessTransportOptions = {}): EventTransport {
  const { logger, retryDelayMs = 100, maxRetryDelayMs = 10_000, durables: named, duplicateWindowMs = DAY_MS } = options;
  // Without named durables, every message, for a durable that subscribes later.
  const published: EventMessage[] | undefined = named ? undefined : [];
  // Each id with when it was published, oldest first.
  const publishedIds = new Map<string, number>();
  const durables = new Map<string, Durable>();
  const subscriptions = new Set<Subscription>();
  const announcements = new EventEmitter().setMaxListeners(0);
  let closed = false;

  const queueOf = (messages: readonly EventMessage[]): Durable => ({
    ready: messages.map((message) => ({ message, deliveries: 0, dueAt: 0 })),
    retrying: [],
    wakeup: new Wakeup(),
  });
  for (const name of named ?? []) durables.set(name, queueOf([]));

  function durable(name: string): Durable {
    let found = durables.get(name);
    if (!found) {
      if (!published) throw new Error(`durable consumer ${name} is not one this transport carries (${named!.join(', ')})`);
      found = queueOf(published);
      durables.set(name, found);
    }
    return found;
  }

  /** Forgets the ids published longer ago than the duplicate window. */
  function forgetOldIds(now: number): void {
    for (const [id, at] of publishedIds) {
      if (at > now - duplicateWindowMs) break;
      publishedIds.delete(id);
    }
  }

  /** A failed message due again goes before the next new one, so that failures are never starved. */
  function next(queue: Durable, now: number): Delivery | undefined {
    const due = queue.retrying.findIndex((entry) => entry.dueAt <= now);
    return due >= 0 ? queue.retrying.splice(due, 1)[0] : queue.ready.shift();
  }

  async function deliver(name: string, entry: Delivery, handler: EventHandler, queue: Durable): Promise<void> {
    entry.deliveries += 1;
    try {
      await handler({ ...entry.message, deliveryCount: entry.deliveries });
    } catch (error) {
      entry.dueAt = Date.now() + retryDelay(entry.deliveries, retryDelayMs, maxRetryDelayMs);
      queue.retrying.push(entry);
      logger?.warn(
        { err: error, durable: name, id: entry.message.id, deliveryCount: entry.deliveries },
        'event handler failed; will redeliver',
      );
    }
  }

  async function run(name: string, queue: Durable, handler: EventHandler, stopped: () => boolean): Promise<void> {
    while (!stopped()) {
      const now = Date.now();
      const entry = next(queue, now);
      if (!entry) {
        const dueAt = Math.min(...queue.retrying.map((waiting) => waiting.dueAt));
        await queue.wakeup.wait(dueAt - now);
        continue;
      }
      await deliver(name, entry, handler, queue);
    }
  }

  return {
    async publish(message) {
      if (closed) throw new Error('in-process transport is closed');
      const now = Date.now();
      forgetOldIds(now);
      if (publishedIds.has(message.id)) return;
      const kept: EventMessage = {
        id: message.id,
        subject: message.subject,
        data: Uint8Array.from(message.data),
        ...(message.headers ? { headers: { ...message.headers } } : {}),
      };
      publishedIds.set(kept.id, now);
      published?.push(kept);
      for (const queue of durables.values()) {
        queue.ready.push({ message: kept, deliveries: 0, dueAt: 0 });
        queue.wakeup.notify();
      }
    },

    async consume(name, handler) {
      if (closed) throw new Error('in-process transport is closed');
      const queue = durable(name);
      let stopped = false;
      const running = run(name, queue, handler, () => stopped);
      const subscription: Subscription = {
        async stop() {
          stopped = true;
          queue.wakeup.notify();
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
