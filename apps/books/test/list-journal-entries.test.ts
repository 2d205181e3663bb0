import type { JournalEntry } from '@ctk/proto/ctk/books/v1/books';
import type { OrgRef } from '@ctk/proto/ctk/common/v1/common';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newEvent, newOrg, startFedBooks } from './support.js';

describe('listing journal entries', () => {
  let books: Awaited<ReturnType<typeof startFedBooks>>;
  beforeAll(async () => {
    books = await startFedBooks();
  });
  afterAll(() => books.close());

  /** Posts one sale for each time. */
  async function postAt(org: OrgRef, times: string[]): Promise<void> {
    await books.post(times.map((at, i) => newEvent(org.id ?? '', { occurredAt: new Date(at), description: `${at} #${i}` })));
  }

  async function listAll(org: OrgRef, query: { from?: string; to?: string; limit?: number } = {}) {
    const seen: JournalEntry[] = [];
    const pageSizes: number[] = [];
    let cursor = '';
    do {
      const page = await books.client.listJournalEntries({ org, ...query, cursor });
      seen.push(...page.entries);
      pageSizes.push(page.entries.length);
      cursor = page.nextCursor;
    } while (cursor);
    return { seen, pageSizes };
  }

  const TIMES = [
    '2026-01-01T00:00:00.000Z',
    '2026-01-15T00:00:00.000Z',
    '2026-01-31T23:59:59.999Z',
    '2026-02-01T00:00:00.000Z',
    '2026-02-15T12:00:00.000Z',
  ];

  it('lists entries that occurred from the from date to the to date, both UTC calendar dates and both included', async () => {
    const org = newOrg();
    await postAt(org, TIMES);
    const { entries } = await books.client.listJournalEntries({ org, from: '2026-01-15', to: '2026-01-31' });
    expect(entries.map((e) => e.occurredAt)).toEqual(['2026-01-15T00:00:00.000Z', '2026-01-31T23:59:59.999Z']);
    const oneDay = await books.client.listJournalEntries({ org, from: '2026-02-01', to: '2026-02-01' });
    expect(oneDay.entries.map((e) => e.occurredAt)).toEqual(['2026-02-01T00:00:00.000Z']);
  });

  it('takes either bound alone, and 9999-12-31, the last date, as to', async () => {
    const org = newOrg();
    await postAt(org, TIMES);
    const occurred = async (query: { from?: string; to?: string }) =>
      (await books.client.listJournalEntries({ org, ...query })).entries.map((e) => e.occurredAt);
    expect(await occurred({ from: '2026-02-01' })).toEqual(TIMES.slice(3));
    expect(await occurred({ to: '2026-01-15' })).toEqual(TIMES.slice(0, 2));
    expect(await occurred({})).toEqual(TIMES);
    expect(await occurred({ from: '2026-01-15', to: '9999-12-31' })).toEqual(TIMES.slice(1));
    expect(await occurred({ from: '9999-12-31', to: '9999-12-31' })).toEqual([]);
    expect(await occurred({ from: '0001-01-01', to: '0001-01-01' })).toEqual([]);
  });

  it('pages through every entry oldest first, ties by id, without duplicates or gaps', async () => {
    const org = newOrg();
    // Several entries share a moment so that the id tie-break is exercised.
    await postAt(org, [
      ...Array(6).fill('2026-03-02T09:00:00.000Z'),
      ...Array(3).fill('2026-03-01T09:00:00.000Z'),
      '2026-03-03T09:00:00.000Z',
      '2026-03-04T00:00:00.000Z',
      '2026-03-05T00:00:00.000Z',
    ]);
    const { seen, pageSizes } = await listAll(org, { limit: 5 });
    expect(pageSizes).toEqual([5, 5, 2]);
    expect(new Set(seen.map((e) => e.id)).size).toBe(12);
    const ordered = [...seen].sort((a, b) => a.occurredAt.localeCompare(b.occurredAt) || a.id.localeCompare(b.id));
    expect(seen).toEqual(ordered);
  });

  it('pages within a date range without leaving it', async () => {
    const org = newOrg();
    await postAt(org, [...Array(7).fill('2026-04-10T00:00:00.000Z'), '2026-04-09T23:59:59.999Z', '2026-04-20T00:00:00.000Z']);
    const { seen, pageSizes } = await listAll(org, { from: '2026-04-10', to: '2026-04-19', limit: 3 });
    expect(pageSizes).toEqual([3, 3, 1]);
    expect(new Set(seen.map((e) => e.id)).size).toBe(7);
    expect(seen.every((e) => e.occurredAt === '2026-04-10T00:00:00.000Z')).toBe(true);
  });

  it('returns at most 50 entries when no limit is given, and no cursor when they all fit', async () => {
    const org = newOrg();
    await postAt(org, TIMES);
    expect(await books.client.listJournalEntries({ org })).toMatchObject({ nextCursor: '', entries: { length: 5 } });
  });

  it('never lists one organisation the entries of another', async () => {
    const owner = newOrg();
    await postAt(owner, TIMES);
    const stranger = newOrg();
    expect(await books.client.listJournalEntries({ org: stranger, limit: 100 })).toEqual({ entries: [], nextCursor: '' });
    // Nor through a cursor taken from the owner's listing.
    const { nextCursor } = await books.client.listJournalEntries({ org: owner, limit: 1 });
    expect(await books.client.listJournalEntries({ org: stranger, cursor: nextCursor })).toEqual({ entries: [], nextCursor: '' });
  });

  it.each([
    ['a from that is not a date', { from: 'last tuesday' }, 'from'],
    ['a to date-time, where a date is asked for', { to: '2026-01-31T09:30:00Z' }, 'to'],
    ['a from date that does not exist', { from: '2026-02-30' }, 'from'],
    ['a from in year 0, which PostgreSQL has no day of', { from: '0000-01-01' }, 'from'],
    ['a from after to', { from: '2026-02-02', to: '2026-02-01' }, 'from'],
    ['a limit over 100', { limit: 101 }, 'limit'],
    ['a negative limit', { limit: -1 }, 'limit'],
    ['a cursor it did not issue', { cursor: 'not-a-cursor' }, 'cursor'],
  ])('rejects a listing with %s as validation_failed naming the field', async (_, query, field) => {
    await expect(books.client.listJournalEntries({ org: newOrg(), ...query })).rejects.toMatchObject({
      code: 'validation_failed',
      details: { field },
    });
  });

  it('rejects a listing that names no organisation as a bad request', async () => {
    await expect(books.client.listJournalEntries({ org: { id: 'corner-cafe' } })).rejects.toMatchObject({ code: 'bad_request' });
  });
});
