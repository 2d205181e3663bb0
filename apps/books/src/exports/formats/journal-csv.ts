import type { JournalEntry } from '@ctk/proto/ctk/books/v1/books';
import { csvField, csvRow, text } from '../csv.js';
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
  // What every line of the entry repeats is written once per entry, not once per line: an export of
  // 50,000 entries otherwise makes (and V8 must collect) hundreds of MiB of short-lived strings.
  const first = [entry.id, isoDate(entry.occurredAt), entry.eventType].map(csvField).join(',');
  const last = [entry.currency, text(entry.description)].map(csvField).join(',');
  const references = [sourceReference(entry), entry.txid ?? ''].map(csvField).join(',');
  let out = '';
  for (const line of entry.lines) {
    out += `${first},${csvField(line.accountCode)},${csvField(text(line.accountName))},${
      line.debitMinor ? csvField(formatMinor(line.debitMinor, entry.currency)) : ''
    },${line.creditMinor ? csvField(formatMinor(line.creditMinor, entry.currency)) : ''},${last},${csvField(text(line.memo ?? ''))},${references}\r\n`;
  }
  return out;
}
