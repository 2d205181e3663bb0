import { PaymentEvent } from '@ctk/proto/ctk/events/v1/payment_event';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { connectNatsTransport } from '../src/events/nats-transport.js';
import { enqueueOutboxEvent } from '../src/events/outbox.js';
import { startOutboxRelay, type OutboxRelay } from '../src/events/outbox-relay.js';
import type { EventTransport } from '../src/events/transport.js';
import { eventually } from '../src/testing/eventually.js';
import { closeAdmin, deleteStream, NATS_URL, natsProxy, storedMessages, testStream, uniqueName } from '../src/testing/nats.js';
import { openOutboxDatabase, type OutboxDatabase } from './fixtures/outbox/database.js';
import { paymentEvent } from './fixtures/payment-events.js';
import { silentLogger } from './fixtures/silent-logger.js';

let db: OutboxDatabase;
beforeAll(async () => {
  db = await openOutboxDatabase();
});
afterAll(async () => {
  await db.close();
  await closeAdmin();
});
beforeEach(() => db.reset());

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

let stream: ReturnType<typeof testStream>;
beforeEach(() => {
  stream = testStream();
  cleanups.push(() => deleteStream(stream.name));
});

async function nats(url = NATS_URL): Promise<EventTransport> {
  const transport = await connectNatsTransport({
    url,
    logger: silentLogger(),
    stream,
    publishTimeoutMs: 300,
    reconnectTimeWaitMs: 100,
    retryDelayMs: 100,
  });
  cleanups.push(() => transport.close());
  return transport;
}

function relay(transport: EventTransport): OutboxRelay {
  const started = startOutboxRelay({ sql: db.sql, transport, logger: silentLogger(), pollMs: 20, maxBackoffMs: 100 });
  cleanups.push(() => started.stop());
  return started;
}

/** Commits `count` payment events on the test stream's subject, one transaction each, oldest first. */
async function enqueue(count: number): Promise<PaymentEvent[]> {
  const events = Array.from({ length: count }, (_, i) => paymentEvent({ id: `evt-${String(i).padStart(4, '0')}` }));
  for (const event of events) {
    const payload = Uint8Array.from(PaymentEvent.encode(event).finish());
    await db.prisma.$transaction((tx) => enqueueOutboxEvent(tx, { id: event.id, subject: stream.subject, payload }));
  }
  return events;
}

const storedIds = async () => (await storedMessages(stream.name)).map(([id]) => id);
const sentCount = () => db.prisma.outboxEvent.count({ where: { sentAt: { not: null } } });

describe('OutboxRelay with NATS JetStream', () => {
  it('publishes every event exactly once, in order, with its id as the message id, and marks it sent', async () => {
    const transport = await nats();
    const written = await enqueue(30);
    const outbox = relay(transport);
    await eventually(async () => expect(await outbox.backlog()).toBe(0));
    expect(await sentCount()).toBe(30);
    expect(await storedIds()).toEqual(written.map((event) => event.id));

    const consumed: PaymentEvent[] = [];
    await transport.consume(uniqueName('reader'), async (m) => void consumed.push(PaymentEvent.decode(m.data)));
    await eventually(() => expect(consumed).toEqual(written));
  });

  it('publishes an event sent but not marked (a crash in between) again without duplicating it', async () => {
    const outbox = relay(await nats());
    await enqueue(5);
    await eventually(async () => expect(await outbox.backlog()).toBe(0));
    await db.prisma.outboxEvent.updateMany({ where: { id: { in: ['evt-0001', 'evt-0003'] } }, data: { sentAt: null } });
    await eventually(async () => expect(await outbox.backlog()).toBe(0));
    expect(await storedIds()).toEqual(['evt-0000', 'evt-0001', 'evt-0002', 'evt-0003', 'evt-0004']);
  });

  it('marks nothing sent while NATS is unreachable, and publishes everything once a working transport is given', async () => {
    const unreachable = relay(await nats('nats://127.0.0.1:1'));
    const written = await enqueue(4);
    await eventually(async () =>
      expect((await db.prisma.outboxEvent.findFirstOrThrow({ orderBy: { id: 'asc' } })).attempts).toBeGreaterThan(0),
    );
    expect(await unreachable.backlog()).toBe(4);
    expect(await sentCount()).toBe(0);
    await unreachable.stop();

    const outbox = relay(await nats());
    await eventually(async () => expect(await outbox.backlog()).toBe(0));
    expect(await storedIds()).toEqual(written.map((event) => event.id));
  });

  it('publishes everything once NATS comes back', async () => {
    const proxy = await natsProxy();
    cleanups.push(() => proxy.down());
    const transport = await nats(proxy.url);
    await eventually(() => transport.publish({ id: 'warm-up', subject: stream.subject, data: new Uint8Array() }));
    await proxy.down();
    const outbox = relay(transport);
    await enqueue(3);
    await eventually(async () => expect(await db.prisma.outboxEvent.count({ where: { attempts: { gt: 0 } } })).toBe(1));
    expect(await outbox.backlog()).toBe(3);

    await proxy.up();
    await eventually(async () => expect(await outbox.backlog()).toBe(0));
    expect(await storedIds()).toEqual(['warm-up', 'evt-0000', 'evt-0001', 'evt-0002']);
  });
});
