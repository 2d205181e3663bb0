import type { JournalEntry } from '@ctk/proto/ctk/books/v1/books';
import { AppError } from '@ctk/shared';

/** The most entries one export holds: beyond it the caller narrows the date range. */
export const MAX_EXPORT_ENTRIES = 50_000;
const PAGE = 100;

export type ListPage = (page: { limit: number; cursor: string }) => Promise<{ entries: JournalEntry[]; nextCursor: string }>;

/** Every entry of the range, oldest first, page by page from books, or 422 past `max` entries. */
export async function readWholeRange(listPage: ListPage, max = MAX_EXPORT_ENTRIES): Promise<JournalEntry[]> {
  const entries: JournalEntry[] = [];
  let cursor = '';
  do {
    const page = await listPage({ limit: PAGE, cursor });
    entries.push(...page.entries);
    if (entries.length > max) {
      throw new AppError(
        'validation_failed',
        `This date range holds more than ${max} journal entries, more than one export holds: narrow it with from and to.`,
        {
          field: 'from',
          max_entries: max,
        },
      );
    }
    cursor = page.nextCursor;
  } while (cursor);
  return entries;
}
