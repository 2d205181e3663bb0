import { calendarDate, cursorPosition, type Org, takePage, validate } from '@ctk/shared';
import { z } from 'zod';
import type { JournalRepository, ListedEntry } from '../data/journal-repository.js';

const DEFAULT_LIMIT = 50;
const MAX_LIMIT = 100;

/** An ISO 8601 date (midnight UTC) or date-time in years 1 to 9999 (UTC), as PostgreSQL reads them; proto3's empty string means not given. */
const instant = (field: string) =>
  z.union(
    [
      z.literal('').transform(() => undefined),
      calendarDate(field).transform((date) => new Date(`${date}T00:00:00Z`)),
      z.iso
        .datetime({ offset: true })
        .transform((at) => new Date(at))
        .refine((at) => at.getUTCFullYear() >= 1 && at.getUTCFullYear() <= 9999),
    ],
    {
      error: `${field} must be an ISO 8601 date or date-time from year 1 to 9999, such as 2026-01-31 or 2026-01-31T09:30:00Z (with an offset)`,
    },
  );

const querySchema = z
  .object({
    from: instant('from'),
    to: instant('to'),
    // proto3 sends 0 for "not set"
    limit: z
      .number()
      .int()
      .transform((limit) => limit || DEFAULT_LIMIT)
      .pipe(z.number().min(1, `limit must be between 1 and ${MAX_LIMIT}`).max(MAX_LIMIT, `limit must be between 1 and ${MAX_LIMIT}`)),
    cursor: z.string(),
  })
  .refine((q) => !q.from || !q.to || q.from < q.to, { message: 'from must be before to', path: ['from'] });

export type JournalPage = { entries: ListedEntry[]; nextCursor: string };

/**
 * The organisation's journal entries that occurred in [from, to), oldest first (ties by id), a page at a
 * time; nextCursor is empty on the last page.
 */
export async function listJournalEntries(journal: JournalRepository, org: Org, input: z.input<typeof querySchema>): Promise<JournalPage> {
  const { from, to, limit, cursor } = validate(querySchema, input);
  const rows = await journal.list(org.id, { from, to }, limit + 1, cursorPosition(cursor));
  const { page, nextCursor } = takePage(rows, limit, (entry) => ({ at: entry.occurredAt, id: entry.id }));
  return { entries: page, nextCursor };
}
