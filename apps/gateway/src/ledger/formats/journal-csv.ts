import { toCsv, text } from '../csv.js';
import { isoDate } from '../dates.js';
import { formatMinor } from '../minor-units.js';
import { sourceReference, type Renderer } from './export-context.js';

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
export const journalCsv: Renderer = (entries) =>
  toCsv(
    HEADER,
    entries.flatMap((entry) =>
      entry.lines.map((line) => [
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
    ),
  );
