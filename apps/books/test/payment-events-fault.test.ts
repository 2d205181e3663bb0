// The outbox under faults: a backlog of payment events drains into the ledger while books is
// restarted and the NATS connection drops. CTK_FAULT_EVENTS sets the number of events: 2,000 by default
// (about a minute in CI), 10000 for the full size.
import { randomUUID } from 'node:crypto';
import { createLogger, type EventTransport } from '@ctk/shared';
import { connectNatsTransport } from '@ctk/shared/nats';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { closeAdmin, deleteStream, natsProxy, streamInfo, testStream } from '@ctk/shared/testing';
import { deliveryWatch } from './fixtures/delivery-watch.js';
import { openEmitter } from './fixtures/emitter.js';
import { mixedEvents, openTestJournal, startTestBooks, testBooksDatabase } from './support.js';

const EVENTS = Number(process.env.CTK_FAULT_EVENTS ?? 2_000);
if (!Number.isInteger(EVENTS) || EVENTS < 100)
  throw new Error(`CTK_FAULT_EVENTS must be a whole number of at least 100, not ${process.env.CTK_FAULT_EVENTS}`);

const silent = createLogger('fault-test', 'silent');
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});
afterAll(() => closeAdmin());

/** Runs `task` on every item, `concurrency` at a time. */
async function eachLimited<T>(items: readonly T[], concurrency: number, task: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < items.length) await task(items[next++]!);
    }),
  );
}

describe('the books consumer under faults', () => {
  it(
    `posts exactly ${EVENTS} balanced entries for ${EVENTS} events while books restarts and the NATS connection drops`,
    async () => {
      const stream = testStream();
      cleanups.push(() => deleteStream(stream.name));
      const proxy = await natsProxy();
      cleanups.push(() => proxy.down());
      const cleanupTransports = new Set<EventTransport>();
      cleanups.push(() => Promise.all([...cleanupTransports].map((t) => t.close())));
      // Short ack wait: a delivery whose ack a dropped connection swallowed comes back in 2 s, not 30.
      const connect = async () => {
        const transport = await connectNatsTransport({
          url: proxy.url,
          logger: silent,
          stream,
          ackWaitMs: 2_000,
          retryDelayMs: 100,
          maxRetryDelayMs: 1_000,
          publishTimeoutMs: 1_000,
          reconnectTimeWaitMs: 100,
        });
        cleanupTransports.add(transport);
        return transport;
      };

      const emitter = await openEmitter({ subjectPrefix: stream.subjects[0]!.slice(0, -1) });
      cleanups.push(() => emitter.close());
      const database = await testBooksDatabase({ durable: true });
      cleanups.push(() => database.remove());

      const organizationIds = Array.from({ length: 8 }, () => randomUUID());
      const events = mixedEvents(organizationIds, EVENTS);
      // The relay publishes while the orders are written; books is down, so the backlog builds up.
      const relay = emitter.startRelay(await connect());
      const writeStarted = Date.now();
      await eachLimited(events, 4, (event) => emitter.sell(event));
      const writeMs = Date.now() - writeStarted;

      // books as a process: its own NATS connection, started and stopped with it.
      const watch = deliveryWatch();
      let running: { books: Awaited<ReturnType<typeof startTestBooks>>; transport: EventTransport } | undefined;
      const startBooks = async () => {
        const transport = await connect();
        running = { transport, books: await startTestBooks({ env: database.env, transport: watch.wrap(transport) }) };
      };
      const stopBooks = async () => {
        const { books, transport } = running!;
        running = undefined;
        await books.close();
        await transport.close();
        cleanupTransports.delete(transport);
      };
      cleanups.push(async () => running && stopBooks());

      const faults: Array<{ fault: string; handled: number; handledWhileDown?: number }> = [];
      const record = (fault: string) => faults[faults.push({ fault, handled: watch.handled.size }) - 1]!;
      const dropNats = async (during: () => Promise<void> = () => sleep(1_000)) => {
        const fault = record('NATS connection dropped');
        await proxy.down();
        await during();
        fault.handledWhileDown = watch.handled.size - fault.handled;
        await proxy.up();
      };
      const restartBooks = async () => {
        record('books restarted');
        await stopBooks();
        await startBooks();
      };
      const schedule: Array<[share: number, fault: () => Promise<void>]> = [
        [0.1, () => dropNats()],
        [0.25, restartBooks],
        [
          0.45,
          () =>
            dropNats(async () => {
              await restartBooks();
              await sleep(500);
            }),
        ],
        [0.65, restartBooks],
        [0.8, () => dropNats()],
      ];

      const drainStarted = Date.now();
      let faultMs = 0;
      await startBooks();
      const inOutbox = await relay.backlog();
      for (const [share, fault] of schedule) {
        while (watch.handled.size < share * EVENTS) await sleep(10);
        const faultStarted = Date.now();
        await fault();
        faultMs += Date.now() - faultStarted;
      }
      while (watch.handled.size < EVENTS) await sleep(10);
      const drainMs = Date.now() - drainStarted;
      await sleep(500); // room for a stray late delivery to show up
      await stopBooks();
      expect(await relay.backlog()).toBe(0);
      expect((await streamInfo(stream.name)).state.messages, 'messages in the stream, re-publishes dropped').toBe(EVENTS);

      console.info(
        `[fault test] ${EVENTS} events (${database.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'}): written in ${seconds(writeMs)}, ` +
          `books started with ${inOutbox} still in the outbox, the rest in the stream; ` +
          `backlog drained into the ledger in ${seconds(drainMs)} (${Math.round(EVENTS / (drainMs / 1000))} events/s), ` +
          `${seconds(faultMs)} of it spent in the faults, ` +
          `through ${faults.filter((f) => f.fault === 'books restarted').length} books restarts and ` +
          `${faults.filter((f) => f.fault === 'NATS connection dropped').length} NATS drops; ${watch.redeliveries()} redeliveries`,
      );
      expect(faults.filter((f) => f.fault === 'books restarted').length).toBeGreaterThanOrEqual(2);
      expect(faults.filter((f) => f.fault === 'NATS connection dropped').length).toBeGreaterThanOrEqual(2);
      for (const { fault, handled } of faults) expect(handled, `${fault} before the backlog drained`).toBeLessThan(EVENTS);
      // A real drop: with NATS gone, books finishes at most what it had fetched (32 ahead, 16 in hand) and stalls.
      for (const { handledWhileDown } of faults) expect(handledWhileDown ?? 0).toBeLessThanOrEqual(64);

      const journal = await openTestJournal(database.env);
      try {
        const inScope = { organizationId: { in: organizationIds } };
        const entries = await journal.prisma.journalEntry.findMany({ where: inScope, select: { eventId: true } });
        expect(entries).toHaveLength(EVENTS);
        expect(new Set(entries.map((e) => e.eventId))).toEqual(new Set(events.map((e) => e.id)));
        const unbalanced = await journal.prisma.$queryRaw<Array<{ id: string }>>`
        SELECT e.id FROM journal_entries e LEFT JOIN journal_lines l ON l.entry_id = e.id
        GROUP BY e.id HAVING count(l.id) < 2 OR sum(l.debit_minor) <> sum(l.credit_minor)`;
        expect(unbalanced).toEqual([]);
        expect(await journal.prisma.parkedEvent.count()).toBe(0);
      } finally {
        await journal.close();
      }
    },
    120_000 + EVENTS * 40,
  );
});
