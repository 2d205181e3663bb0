import { PaymentEvent } from '@ctk/proto/ctk/events/v1/payment_event';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { inProcessTransport } from '../src/events/in-process-transport.js';
import { enqueuePaymentEvent } from '../src/events/outbox.js';
import { CLAIM, startOutboxRelay, type OutboxRelay, type OutboxRelayOptions } from '../src/events/outbox-relay.js';
import type { EventTransport } from '../src/events/transport.js';
import { eventually } from '../src/testing/eventually.js';
import { openOutboxDatabase, type OutboxDatabase } from './fixtures/outbox/database.js';
import { paymentEvent } from './fixtures/payment-events.js';
import { silentLogger } from './fixtures/silent-logger.js';
import { spyTransport } from './fixtures/spy-transport.js';

let db: OutboxDatabase;
beforeAll(async () => {
  db = await openOutboxDatabase();
});
afterAll(() => db.close());
beforeEach(() => db.reset());

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function relay(options: Partial<OutboxRelayOptions> & { transport: EventTransport }): OutboxRelay {
  const started = startOutboxRelay({ sql: db.sql, logger: silentLogger(), pollMs: 20, ...options });
  cleanups.push(() => started.stop());
  return started;
}

function transport() {
  const t = inProcessTransport();
  cleanups.push(() => t.close());
  return t;
}

/** Commits `count` payment events, one transaction each, with ids that sort in the order written. */
async function enqueueEvents(count: number, prefix = 'evt'): Promise<PaymentEvent[]> {
  const events = Array.from({ length: count }, (_, i) => paymentEvent({ id: `${prefix}-${String(i).padStart(4, '0')}` }));
  for (const event of events) await db.prisma.$transaction((tx) => enqueuePaymentEvent(tx, event));
  return events;
}

const enqueue = async (count: number, prefix?: string) => (await enqueueEvents(count, prefix)).map((event) => event.id);

/** Everything the transport delivers to a fresh durable consumer, in order. */
async function received(t: EventTransport): Promise<PaymentEvent[]> {
  const events: PaymentEvent[] = [];
  await t.consume('reader', async (m) => void events.push(PaymentEvent.decode(m.data)));
  return events;
}

const unsent = () => db.prisma.outboxEvent.findMany({ where: { sentAt: null }, orderBy: { id: 'asc' } });

describe('OutboxRelay with the in-process transport', () => {
  it('publishes every committed event once, oldest first, and marks it sent', async () => {
    const t = transport();
    const events = await received(t);
    const written = await enqueueEvents(12);
    const outbox = relay({ transport: t, batchSize: 5 });
    await eventually(() => expect(events).toEqual(written));
    await eventually(async () => expect(await outbox.backlog()).toBe(0));
    const rows = await db.prisma.outboxEvent.findMany();
    expect(rows.every((row) => row.sentAt !== null && row.attempts === 0)).toBe(true);
  });

  it('claims by an index scan of the unsent rows alone, in the order it claims them, past the many rows sent before', async () => {
    // An outbox that has sent 20,000 events (each written unsent, then marked sent), and holds 3 to send. On a table
    // of a few pages the planner may as well read it whole; here the plan is what a running service's relay gets.
    await db.prisma.$executeRawUnsafe(
      `INSERT INTO outbox_events (id, subject, payload, created_at)
        SELECT 'sent-' || g, 'payments.test', '\\x00', now() - interval '1 hour' + g * interval '1 ms' FROM generate_series(1, 20000) g`,
    );
    await db.prisma.$executeRawUnsafe('UPDATE outbox_events SET sent_at = now()');
    await enqueue(3, 'late');
    await db.prisma.$executeRawUnsafe('ANALYZE outbox_events');
    // A bitmap scan (and a sort) would visit every row sent since the last vacuum, on every claim.
    const plan = await db.sql.rows<Record<string, string>>(`EXPLAIN ${CLAIM}`, [100]);
    expect(plan.map((row) => Object.values(row)[0]).join('\n')).toMatch(/Index Scan using outbox_events_unsent_idx/);
  });

  it('deletes the rows sent longer ago than it keeps them, once caught up, and keeps the rest', async () => {
    const t = transport();
    const events = await received(t);
    await enqueue(5, 'old');
    const logger = silentLogger();
    const outbox = relay({ transport: t, logger, pruneEveryMs: 0, keepSentMs: 60 * 60 * 1000 });
    await eventually(async () => expect(await outbox.backlog()).toBe(0));
    // Sent two hours ago, as far as the outbox knows.
    await db.prisma.$executeRawUnsafe(
      `UPDATE outbox_events SET sent_at = sent_at - interval '2 hours' WHERE id IN ('old-0000', 'old-0001')`,
    );
    await enqueue(2, 'new');
    await eventually(async () => {
      const kept = await db.prisma.outboxEvent.findMany({ orderBy: { id: 'asc' } });
      expect(kept.map((row) => [row.id, row.sentAt !== null])).toEqual([
        ['new-0000', true],
        ['new-0001', true],
        ['old-0002', true],
        ['old-0003', true],
        ['old-0004', true],
      ]);
    });
    expect(events.map((event) => event.id)).toEqual(['old-0000', 'old-0001', 'old-0002', 'old-0003', 'old-0004', 'new-0000', 'new-0001']);
    // The deletion and the vacuum after it went through (a failure is logged, and publishing goes on).
    expect(logger.warn).not.toHaveBeenCalled();
  });

  it('never publishes an event whose transaction rolled back', async () => {
    const t = transport();
    const events = await received(t);
    await db.prisma
      .$transaction(async (tx) => {
        await enqueuePaymentEvent(tx, paymentEvent({ id: 'rolled-back' }));
        throw new Error('rollback');
      })
      .catch(() => undefined);
    await enqueue(1, 'committed');
    relay({ transport: t });
    await eventually(() => expect(events.map((e) => e.id)).toEqual(['committed-0000']));
  });

  it('keeps events while publishing fails, counts them, warns once, and publishes them all in order once it works', async () => {
    const spy = spyTransport(transport());
    spy.failWith(new Error('broker unreachable'));
    const logger = silentLogger();
    const ids = await enqueue(5);
    const outbox = relay({ transport: spy.transport, logger, batchSize: 2, maxBackoffMs: 50, warnEveryMs: 60_000 });

    await eventually(async () => expect((await unsent())[0]?.attempts).toBeGreaterThanOrEqual(3));
    expect(await outbox.backlog()).toBe(5);
    const rows = await unsent();
    expect(rows[0]?.lastError).toBe('broker unreachable');
    expect(rows.slice(1).every((row) => row.attempts === 0)).toBe(true);
    expect(logger.warn).toHaveBeenCalledTimes(1);
    expect(logger.warn).toHaveBeenCalledWith(expect.objectContaining({ backlog: 5 }), expect.stringContaining('cannot publish'));

    spy.failWith(undefined);
    await eventually(async () => expect(await outbox.backlog()).toBe(0));
    expect(spy.published).toEqual(ids);
    expect(logger.info).toHaveBeenCalledWith(expect.anything(), 'outbox relay is publishing again');
  });

  it('lets two relays on the same database publish every event exactly once between them', { tags: ['concurrency'] }, async () => {
    const t = transport();
    const [a, b] = [spyTransport(t, { delayMs: 1 }), spyTransport(t, { delayMs: 1 })];
    const ids = await db.prisma.$transaction(async (tx) =>
      Promise.all(Array.from({ length: 200 }, async () => (await enqueuePaymentEvent(tx, paymentEvent())).id)),
    );
    const other = await db.anotherSql();
    const first = relay({ transport: a.transport, batchSize: 10 });
    relay({ transport: b.transport, batchSize: 10, sql: other });
    await eventually(async () => expect(await first.backlog()).toBe(0), 20_000);
    const published = [...a.published, ...b.published];
    expect(published).toHaveLength(200);
    expect(new Set(published)).toEqual(new Set(ids));
    if (db.kind === 'postgres') expect([a.published.length > 0, b.published.length > 0]).toEqual([true, true]);
  });

  it('publishes what is pending when stopped, even between polls', async () => {
    const spy = spyTransport(transport());
    const [first] = await enqueue(1, 'first');
    const outbox = relay({ transport: spy.transport, pollMs: 60_000 });
    await eventually(async () => expect(await outbox.backlog()).toBe(0));
    const ids = await enqueue(3);
    await outbox.stop();
    expect(spy.published).toEqual([first, ...ids]);
    expect(await outbox.backlog()).toBe(0);
  });

  it('publishes at once when notified instead of waiting for its next poll', async () => {
    const spy = spyTransport(transport());
    const [first] = await enqueue(1, 'first');
    const outbox = relay({ transport: spy.transport, pollMs: 60_000 });
    await eventually(async () => expect(await outbox.backlog()).toBe(0));
    const ids = await enqueue(2);
    outbox.notify();
    await eventually(() => expect(spy.published).toEqual([first, ...ids]), 2_000);
  });

  it('finishes the batch it is publishing when stopped, then the rest', async () => {
    const spy = spyTransport(transport(), { delayMs: 20 });
    const ids = await enqueue(8);
    const outbox = relay({ transport: spy.transport, batchSize: 4 });
    await eventually(() => expect(spy.published.length).toBeGreaterThan(0));
    await outbox.stop();
    expect(spy.published).toEqual(ids);
    expect(await outbox.backlog()).toBe(0);
  });

  it('stops within its time limit when publishing hangs, leaving the events unsent', async () => {
    const hanging: EventTransport = { ...transport(), publish: () => new Promise(() => undefined) };
    await enqueue(2);
    const logger = silentLogger();
    const outbox = relay({ transport: hanging, logger, drainTimeoutMs: 300, transactionTimeoutMs: 1_000 });
    await new Promise((resolve) => setTimeout(resolve, 50));
    const started = Date.now();
    await outbox.stop();
    expect(Date.now() - started).toBeLessThan(2_000);
    await eventually(async () => expect(await outbox.backlog()).toBe(2));
    expect(logger.warn).toHaveBeenCalledWith(expect.objectContaining({ backlog: 2 }), expect.stringContaining('still in the outbox'));
  });
});
