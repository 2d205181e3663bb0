import type { JournalEntry } from '@ctk/proto/ctk/books/v1/books';
import { isoDate } from '../dates.js';
import { rangeText, referencesOf, title, type ExportContext, type Writer } from '../export-context.js';
import { formatMinor } from '../minor-units.js';
import { commoditySample, oneLine, plainTextAccounts, type PlainTextAccount } from '../plain-text-accounts.js';

const TYPE_TAGS: Readonly<Record<string, string>> = { asset: 'A', liability: 'L', equity: 'E', income: 'R', expense: 'X' };

/**
 * An hledger journal that passes `hledger check --strict`: every commodity and account declared (with
 * its type), one transaction per entry with exact amounts that balance, the references as comment tags.
 * Transactions are separated by a blank line.
 */
export const hledgerJournal: Writer = (summary, context) => {
  const accounts = plainTextAccounts(summary.accounts);
  return {
    head: [
      header(context),
      'decimal-mark .',
      '',
      ...summary.currencies.map((currency) => `commodity ${commoditySample(currency)} ${currency}`),
      '',
      ...[...accounts.values()].map((account) => `account ${account.name}  ; type: ${TYPE_TAGS[account.type]}`),
      '',
    ].join('\n'),
    entry: (entry) => `\n${transaction(entry, accounts)}`,
  };
};

function header(context: ExportContext): string {
  return `; Journal of ${context.handle} from Commerce Toolkit, ${rangeText(context)} (UTC dates)`;
}

function transaction(entry: JournalEntry, accounts: Map<string, PlainTextAccount>): string {
  const postings = entry.lines.map((line) => ({
    account: accounts.get(line.accountCode)?.name ?? '',
    amount: formatMinor(line.debitMinor - line.creditMinor, entry.currency),
    memo: line.memo,
  }));
  const accountWidth = Math.max(...postings.map((p) => p.account.length));
  const amountWidth = Math.max(...postings.map((p) => p.amount.length));
  // A ";" starts a comment in an hledger description.
  const lines = [`${isoDate(entry.occurredAt)} * ${oneLine(title(entry)).replace(/;/g, ',')}`];
  for (const [tag, value] of references(entry)) lines.push(`    ; ${tag}: ${value}`);
  for (const { account, amount, memo } of postings) {
    lines.push(
      `    ${account.padEnd(accountWidth)}  ${amount.padStart(amountWidth)} ${entry.currency}${memo ? `  ; ${oneLine(memo)}` : ''}`,
    );
  }
  return `${lines.join('\n')}\n`;
}

/** Tag values end at a comma in hledger, so none are written. */
function references(entry: JournalEntry): Array<[string, string]> {
  return referencesOf(entry).map(([tag, value]) => [tag, oneLine(value).replace(/,/g, ' ')]);
}
