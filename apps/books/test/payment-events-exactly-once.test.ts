import { randomUUID } from 'node:crypto';
import { PaymentEvent } from '@ctk/proto/ctk/events/v1/payment_event';
import { createLogger, inProcessTransport, type EventTransport } from '@ctk/shared';
import { connectNatsTransport } from '@ctk/shared/nats';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { closeAdmin, deleteStream, eventually, NATS_URL, testStream } from '@ctk/shared/testing';
import { deliveryWatch } from './fixtures/delivery-watch.js';
import { openEmitter } from './fixtures/emitter.js';
import { listAllEntries, mixedEvents, orgRef, startTestBooks } from './support.js';

const silent = createLogger('transport', 'silent');

/** Where the emitter's relay publishes and books consumes, and the subject namespace that goes with it. */
type Wire = { relayTransport: EventTransport; booksTransport: EventTransport; subjectPrefix?: string; close(): Promise<void> };

async function overNats(): Promise<Wire> {
  const stream = testStream();
  // Each side has a connection of its own, as two processes would.
  const connect = () => connectNatsTransport({ url: NATS_URL, logger: silent, stream, retryDelayMs: 50, reconnectTimeWaitMs: 100 });
  const [relayTransport, booksTransport] = [await connect(), await connect()];
  return {
    relayTransport,
    booksTransport,
    subjectPrefix: stream.subjects[0]!.slice(0, -1),
    async close() {
      await Promise.all([relayTransport.close(), booksTransport.close()]);
      await deleteStream(stream.name);
    },
  };
}

async function inProcess(): Promise<Wire> {
  const transport = inProcessTransport({ logger: silent, retryDelayMs: 20 });
  return { relayTransport: transport, booksTransport: transport, close: () => transport.close() };
}

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});
afterAll(() => closeAdmin());

describe.each([
  ['through the outbox, its relay and NATS JetStream', overNats],
  ['in the embedded default, through the outbox, its relay and the in-process transport, without NATS', inProcess],
])('payment events %s', (_, openWire) => {
  it('post exactly one balanced entry per distinct event of every type, through duplicates and forced redeliveries', async () => {
    const wire = await openWire();
    cleanups.push(() => wire.close());
    const emitter = await openEmitter({ subjectPrefix: wire.subjectPrefix });
    cleanups.push(() => emitter.close());

    const organizationId = randomUUID();
    const events = mixedEvents([organizationId], 24);
    const again = [events[1]!, events[5]!, events[10]!];
    const againId = (event: PaymentEvent) => `${event.id}:again`;
    const watch = deliveryWatch({
      before: [events[0]!, events[6]!, events[13]!, events[20]!].map((e) => e.id),
      after: [events[3]!.id, events[7]!.id, events[17]!.id, againId(again[0]!)],
    });
    const books = await startTestBooks({ transport: watch.wrap(wire.booksTransport) });
    cleanups.push(() => books.close());

    for (const event of events.slice(0, 12)) await emitter.sell(event);
    emitter.startRelay(wire.relayTransport);
    for (const event of events.slice(12)) await emitter.sell(event);
    for (const event of again) await emitter.enqueueAgain(event, againId(event));
    // The same message id published again, beside the relay: the transport drops it.
    for (const event of [events[2]!, events[12]!, events[23]!]) {
      const message = { id: event.id, subject: emitter.subjectOf(event), data: PaymentEvent.encode(event).finish() };
      await wire.relayTransport.publish(message);
      await wire.relayTransport.publish(message);
    }

    const messageIds = [...events.map((e) => e.id), ...again.map(againId)];
    await eventually(() => expect([...watch.handled].sort()).toEqual([...messageIds].sort()), 20_000);
    await new Promise((resolve) => setTimeout(resolve, 300)); // room for a stray late delivery to show up

    const entries = await listAllEntries(books.client, orgRef(organizationId));
    expect(entries.map((e) => e.eventId).sort()).toEqual(events.map((e) => e.id).sort());
    expect(new Set(entries.map((e) => e.eventType))).toEqual(
      new Set(['payment.received', 'payment.refunded', 'prepaid.issued', 'prepaid.redeemed']),
    );
    for (const entry of entries) {
      const debits = entry.lines.reduce((sum, line) => sum + line.debitMinor, 0n);
      const credits = entry.lines.reduce((sum, line) => sum + line.creditMinor, 0n);
      expect(debits, entry.eventId).toBe(credits);
      expect(debits, entry.eventId).toBeGreaterThan(0n);
    }
    const deliveries = Object.fromEntries(watch.deliveries);
    for (const id of [events[0]!, events[6]!, events[3]!, events[7]!].map((e) => e.id).concat(againId(again[0]!))) {
      expect(deliveries[id], id).toBeGreaterThanOrEqual(2);
    }
    for (const event of [events[2]!, events[12]!, events[23]!]) expect(deliveries[event.id], event.id).toBe(1);
  });
});
