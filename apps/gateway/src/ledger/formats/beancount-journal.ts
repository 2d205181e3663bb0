import type { JournalEntry } from '@ctk/proto/ctk/books/v1/books';
import { isoDate } from '../dates.js';
import { formatMinor } from '../minor-units.js';
import { rangeText, referencesOf, title, type Renderer } from './export-context.js';
import { currenciesOf, oneLine, plainTextAccounts, type PlainTextAccount } from './plain-text-accounts.js';

/**
 * A beancount ledger that passes `bean-check`: commodities declared and accounts opened (limited to
 * their currencies) on the first entry's date, one transaction per entry with exact amounts that
 * balance, the references as metadata.
 */
export const beancountJournal: Renderer = (entries, context) => {
  const accounts = plainTextAccounts(entries);
  const opened = entries[0] ? isoDate(entries[0].occurredAt) : '';
  return [
    `; Journal of ${context.handle} from Commerce Toolkit, ${rangeText(context)} (UTC dates)`,
    `option "title" ${quoted(`${context.handle} journal`)}`,
    '',
    ...currenciesOf(entries).map((currency) => `${opened} commodity ${currency}`),
    '',
    ...[...accounts.values()].map((account) => `${opened} open ${account.name} ${account.currencies.join(',')}`),
    '',
    ...entries.map((entry) => transaction(entry, accounts)),
  ].join('\n');
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
