import type { JournalEntry } from '@ctk/proto/ctk/books/v1/books';
import { csvRow, text } from '../csv.js';
import { isoDate } from '../dates.js';
import { sourceReference, type Writer } from '../export-context.js';
import { formatMinor } from '../minor-units.js';

const HEADER = [
  'entry_id',
  'date',
  'event_type',
  'account_code',
  'account_name',
  'debit',
  'credit',
  'currency',
  'description',
  'memo',
  'source',
  'txid',
];

/** The plain journal: one row per line, amounts in the currency's major unit, the empty side blank. */
export const journalCsv: Writer = () => ({ head: csvRow(HEADER), entry: rows });

function rows(entry: JournalEntry): string {
  return entry.lines
    .map((line) =>
      csvRow([
        entry.id,
        isoDate(entry.occurredAt),
        entry.eventType,
        line.accountCode,
        text(line.accountName),
        line.debitMinor ? formatMinor(line.debitMinor, entry.currency) : '',
        line.creditMinor ? formatMinor(line.creditMinor, entry.currency) : '',
        entry.currency,
        text(entry.description),
        text(line.memo),
        sourceReference(entry),
        entry.txid,
      ]),
    )
    .join('');
}
