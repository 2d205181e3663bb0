import { cursorPosition, type Org, pageLimit, takePage, validate } from '@ctk/shared';
import { z } from 'zod';
import type { JournalRepository, ListedEntry } from '../data/journal-repository.js';
import { journalRange, journalRangeFields } from './journal-range.js';
import { checkFromNotAfterTo } from './from-not-after-to.js';

const DEFAULT_LIMIT = 50;
const MAX_LIMIT = 100;

const querySchema = z
  .object({
    ...journalRangeFields,
    limit: pageLimit(DEFAULT_LIMIT, MAX_LIMIT),
    cursor: z.string(),
  })
  .superRefine((range, context) => {
    checkFromNotAfterTo(range, context);
  });

export type JournalPage = { entries: ListedEntry[]; nextCursor: string };

/**
 * The organisation's journal entries that occurred from the UTC date `from` to the UTC date `to`, both
 * included, oldest first (ties by id), a page at a time; nextCursor is empty on the last page.
 */
export async function listJournalEntries(journal: JournalRepository, org: Org, input: z.input<typeof querySchema>): Promise<JournalPage> {
  const { limit, cursor, ...range } = validate(querySchema, input);
  const rows = await journal.list(org.id, journalRange(range), limit + 1, cursorPosition(cursor));
  const { page, nextCursor } = takePage(rows, limit, (entry) => ({ at: entry.occurredAt, id: entry.id }));
  return { entries: page, nextCursor };
}
