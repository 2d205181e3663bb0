import type { JournalEntry } from '@ctk/proto/ctk/books/v1/books';
import { isoDate } from '../dates.js';
import { rangeText, referencesOf, title, type Writer } from '../export-context.js';
import { formatMinor } from '../minor-units.js';
import { oneLine, plainTextAccounts, type PlainTextAccount } from '../plain-text-accounts.js';

/**
 * A beancount ledger that passes `bean-check`: commodities declared and accounts opened (limited to
 * their currencies) on the first entry's date, one transaction per entry with exact amounts that
 * balance, the references as metadata. Transactions are separated by a blank line.
 */
export const beancountJournal: Writer = (summary, context) => {
  const accounts = plainTextAccounts(summary.accounts);
  const opened = summary.firstDate;
  return {
    head: [
      `; Journal of ${context.handle} from Commerce Toolkit, ${rangeText(context)} (UTC dates)`,
      `option "title" ${quoted(`${context.handle} journal`)}`,
      '',
      ...summary.currencies.map((currency) => `${opened} commodity ${currency}`),
      '',
      ...[...accounts.values()].map((account) => `${opened} open ${account.name} ${account.currencies.join(',')}`),
      '',
    ].join('\n'),
    entry: (entry) => `\n${transaction(entry, accounts)}`,
  };
};

function transaction(entry: JournalEntry, accounts: Map<string, PlainTextAccount>): string {
  const lines = [`${isoDate(entry.occurredAt)} * ${quoted(title(entry))}`];
  for (const [key, value] of referencesOf(entry)) lines.push(`  ${key}: ${quoted(value)}`);
  for (const line of entry.lines) {
    const amount = formatMinor(line.debitMinor - line.creditMinor, entry.currency);
    lines.push(`  ${accounts.get(line.accountCode)?.name ?? ''}  ${amount} ${entry.currency}`);
    if (line.memo) lines.push(`    memo: ${quoted(line.memo)}`);
  }
  return `${lines.join('\n')}\n`;
}

/** A beancount string on one line, backslashes and quotes escaped. */
function quoted(value: string): string {
  return `"${oneLine(value).replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}
