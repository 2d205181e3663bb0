import { rangeText, type ExportContext, type Writer } from './export-context.js';
import { beancountJournal } from './formats/beancount-journal.js';
import { hledgerJournal } from './formats/hledger-journal.js';
import { journalCsv } from './formats/journal-csv.js';
import { quickbooksCsv } from './formats/quickbooks-csv.js';
import { xeroCsv } from './formats/xero-csv.js';

export type ExportFormat = { mediaType: string; fileSuffix: string; writer: Writer };

const CSV = 'text/csv; charset=utf-8';
const TEXT = 'text/plain; charset=utf-8';

/** Every export of the journal: its media type, the end of its file name and how it is written. */
export const EXPORT_FORMATS = {
  csv: { mediaType: CSV, fileSuffix: 'journal.csv', writer: journalCsv },
  quickbooks: { mediaType: CSV, fileSuffix: 'quickbooks.csv', writer: quickbooksCsv },
  xero: { mediaType: CSV, fileSuffix: 'xero.csv', writer: xeroCsv },
  hledger: { mediaType: TEXT, fileSuffix: 'hledger.journal', writer: hledgerJournal },
  beancount: { mediaType: TEXT, fileSuffix: 'ledger.beancount', writer: beancountJournal },
} as const satisfies Record<string, ExportFormat>;

export type ExportFormatName = keyof typeof EXPORT_FORMATS;
export const EXPORT_FORMAT_NAMES = Object.keys(EXPORT_FORMATS) as [ExportFormatName, ...ExportFormatName[]];

/**
 * e.g. corner-cafe-2026-01-01-to-2026-01-31-quickbooks.csv, corner-cafe-from-2026-01-01-journal.csv;
 * the handle is [a-z0-9-], so the name is safe in a header.
 */
export function exportFileName(format: ExportFormat, context: Pick<ExportContext, 'handle' | 'from' | 'to'>): string {
  const range = context.from || context.to ? `-${rangeText(context).replace(/ /g, '-')}` : '';
  return `${context.handle}${range}-${format.fileSuffix}`;
}
