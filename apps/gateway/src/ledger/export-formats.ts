import { beancountJournal } from './formats/beancount-journal.js';
import { rangeText, type ExportContext, type Renderer } from './formats/export-context.js';
import { hledgerJournal } from './formats/hledger-journal.js';
import { journalCsv } from './formats/journal-csv.js';
import { quickbooksCsv } from './formats/quickbooks-csv.js';
import { xeroCsv } from './formats/xero-csv.js';
import type { LedgerFormat } from './ledger-query.js';

export type ExportFormat = { contentType: string; fileSuffix: string; render: Renderer };

const CSV = 'text/csv; charset=utf-8';
const TEXT = 'text/plain; charset=utf-8';

/** Every export of the journal: its media type, the end of its file name and how it is written. */
export const EXPORT_FORMATS: Readonly<Record<Exclude<LedgerFormat, 'json'>, ExportFormat>> = {
  csv: { contentType: CSV, fileSuffix: 'journal.csv', render: journalCsv },
  quickbooks: { contentType: CSV, fileSuffix: 'quickbooks.csv', render: quickbooksCsv },
  xero: { contentType: CSV, fileSuffix: 'xero.csv', render: xeroCsv },
  hledger: { contentType: TEXT, fileSuffix: 'hledger.journal', render: hledgerJournal },
  beancount: { contentType: TEXT, fileSuffix: 'ledger.beancount', render: beancountJournal },
};

/**
 * e.g. corner-cafe-2026-01-01-to-2026-01-31-quickbooks.csv, corner-cafe-from-2026-01-01-journal.csv;
 * the handle is [a-z0-9-], so the name is safe in a header.
 */
export function exportFileName(format: ExportFormat, context: ExportContext): string {
  const range = context.from || context.to ? `-${rangeText(context).replace(/ /g, '-')}` : '';
  return `${context.handle}${range}-${format.fileSuffix}`;
}
