import { randomUUID } from 'node:crypto';
import { scrapeMetrics, type Scrape } from '@ctk/shared/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newEvent, startFedBooks } from './support.js';

let books: Awaited<ReturnType<typeof startFedBooks>>;
beforeAll(async () => {
  books = await startFedBooks({ config: { METRICS_PORT: '0' } });
});
afterAll(() => books?.close());

const delta = (after: Scrape, before: Scrape, name: string, labels: Record<string, string> = {}) =>
  (after.value(name, labels) ?? 0) - (before.value(name, labels) ?? 0);

describe("books' metrics", () => {
  it('count the events it consumes by outcome and those it parks, show what its parked table holds, and its gRPC calls', async () => {
    const port = books.metricsPort!;
    const before = await scrapeMetrics(port);
    expect(before.value('ctk_parked_events')).toBe(0);
    const org = randomUUID();
    await books.post([newEvent(org), newEvent(org), newEvent(org, { taxMinor: 5_000n })]);
    await books.client.getSetup({ org: { id: org, handle: 'metrics-cafe' } });

    const after = await scrapeMetrics(port);
    expect(after.types.get('ctk_events_consumed_total')).toBe('counter');
    expect(delta(after, before, 'ctk_events_consumed_total', { consumer: 'books', outcome: 'posted' })).toBe(2);
    expect(delta(after, before, 'ctk_events_consumed_total', { consumer: 'books', outcome: 'parked' })).toBe(1);
    expect(delta(after, before, 'ctk_events_parked_total')).toBe(1);
    expect(after.types.get('ctk_parked_events')).toBe('gauge');
    expect(after.value('ctk_parked_events')).toBe(1);
    expect(delta(after, before, 'ctk_grpc_server_calls_total', { method: 'ctk.books.v1.BooksService/GetSetup', code: 'OK' })).toBe(1);
    // books emits nothing: it has no outbox to show.
    expect(after.types.has('ctk_outbox_backlog')).toBe(false);
    expect(after.value('process_cpu_user_seconds_total', { app: 'books' })).toBeGreaterThan(0);
  });
});
