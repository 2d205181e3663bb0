import type { JournalEntry } from '@ctk/proto/ctk/books/v1/books';
import { AppError } from '@ctk/shared';
import { csvRow, text } from '../csv.js';
import { dayFirstDate } from '../dates.js';
import { title, type JournalSummary, type Writer } from '../export-context.js';
import { formatMinor } from '../minor-units.js';
import { journalNo } from './quickbooks-csv.js';

/**
 * Xero's manual journal import template (Manual Journals > Import): rows sharing a narration and a date
 * are one journal, so each narration ends with the entry's number; dates DD/MM/YYYY; the account by
 * code; Amount positive for a debit, negative for a credit. Sales tax already has its own line, so
 * every line carries the organisation's no-tax rate: "Tax Exempt" unless `xero_tax_rate` names
 * another (its name differs by region: "No VAT", "BAS Excluded", "No GST").
 */
const HEADER = [
  '*Narration',
  '*Date',
  'Description',
  '*AccountCode',
  '*TaxRate',
  '*Amount',
  'TrackingName1',
  'TrackingOption1',
  'TrackingName2',
  'TrackingOption2',
];
export const DEFAULT_XERO_TAX_RATE = 'Tax Exempt';

export const xeroCsv: Writer = (summary, context) => {
  refuseMixedCurrencies(summary);
  const taxRate = context.xeroTaxRate || DEFAULT_XERO_TAX_RATE;
  return {
    head: csvRow(HEADER),
    entry: (entry: JournalEntry) =>
      entry.lines
        .map((line) =>
          csvRow([
            text(`${title(entry)} [${journalNo(entry.id)}]`),
            dayFirstDate(entry.occurredAt),
            text(line.memo || `${line.accountName}: ${title(entry)}`),
            line.accountCode,
            text(taxRate),
            formatMinor(line.debitMinor - line.creditMinor, entry.currency),
            '',
            '',
            '',
            '',
          ]),
        )
        .join(''),
  };
};

/** A manual journal has no currency column: amounts in two currencies would be added up as one. */
function refuseMixedCurrencies({ currencies }: JournalSummary) {
  if (currencies.length > 1) {
    throw new AppError(
      'validation_failed',
      `Xero manual journals carry no currency, and this range holds entries in ${currencies.join(', ')}: narrow the date range to one currency, or export csv, hledger or beancount.`,
      {
        field: 'format',
        currencies,
      },
    );
  }
}
