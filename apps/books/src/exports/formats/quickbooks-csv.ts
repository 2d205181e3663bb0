import type { JournalEntry } from '@ctk/proto/ctk/books/v1/books';
import { csvRow, text } from '../csv.js';
import { usDate } from '../dates.js';
import { sourceReference, title, type Writer } from '../export-context.js';
import { formatMinor } from '../minor-units.js';

/**
 * QuickBooks Online's journal entry import (Settings > Import data > Journal entries): rows sharing a
 * JournalNo are one entry, dates MM/DD/YYYY, the account by name as in the chart of accounts (turn
 * account numbers off before importing), the empty side blank. Currency is read when multicurrency is on.
 */
const HEADER = ['JournalNo', 'JournalDate', 'Currency', 'Memo', 'AccountName', 'Debits', 'Credits', 'Description', 'Name'];

export const quickbooksCsv: Writer = () => ({ head: csvRow(HEADER), entry: rows });

function rows(entry: JournalEntry): string {
  return entry.lines
    .map((line) =>
      csvRow([
        journalNo(entry.id),
        usDate(entry.occurredAt),
        entry.currency,
        text(memo(entry)),
        text(line.accountName),
        line.debitMinor ? formatMinor(line.debitMinor, entry.currency) : '',
        line.creditMinor ? formatMinor(line.creditMinor, entry.currency) : '',
        text(line.memo || title(entry)),
        '',
      ]),
    )
    .join('');
}

/**
 * QuickBooks keeps at most 21 characters of a journal number: "CTK-" and the last 12 hex digits of the
 * entry's id (random in a v4 UUID), the same in every export of the entry.
 */
export function journalNo(entryId: string): string {
  return `CTK-${entryId.replace(/-/g, '').slice(-12).toUpperCase()}`;
}

function memo(entry: JournalEntry): string {
  const references = [
    `entry ${entry.id}`,
    `event ${entry.eventId}`,
    sourceReference(entry) && `source ${sourceReference(entry)}`,
    entry.txid && `txid ${entry.txid}`,
  ];
  return `${title(entry)} (${references.filter(Boolean).join(', ')})`;
}
