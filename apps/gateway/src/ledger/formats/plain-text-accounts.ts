import type { JournalEntry } from '@ctk/proto/ctk/books/v1/books';
import { AppError } from '@ctk/shared';
import { exponentOf } from '../minor-units.js';

const ROOTS: Readonly<Record<string, string>> = {
  asset: 'Assets',
  liability: 'Liabilities',
  equity: 'Equity',
  income: 'Income',
  expense: 'Expenses',
};

export type PlainTextAccount = { name: string; type: string; currencies: string[] };

/**
 * Account names for hledger and beancount, by type and name: "BSV wallet" (asset) is
 * Assets:BSV-Wallet. A component is ASCII letters, digits and inner hyphens and starts with a capital
 * or a digit, as beancount requires; two codes whose names would be alike are told apart by their code.
 * In the order of the codes, as the chart of accounts lists them.
 */
export function plainTextAccounts(entries: readonly JournalEntry[]): Map<string, PlainTextAccount> {
  const byCode = new Map<string, PlainTextAccount>();
  for (const entry of entries) {
    for (const line of entry.lines) {
      const account = byCode.get(line.accountCode) ?? {
        name: accountName(line.accountType, line.accountName, line.accountCode),
        type: line.accountType,
        currencies: [],
      };
      if (!account.currencies.includes(entry.currency)) account.currencies.push(entry.currency);
      byCode.set(line.accountCode, account);
    }
  }
  // Names that differ only in case would read as one account to a person.
  const shared = countBy([...byCode.values()].map((a) => a.name.toLowerCase()));
  for (const [code, account] of byCode) if ((shared.get(account.name.toLowerCase()) ?? 0) > 1) account.name += `-${component(code)}`;
  return new Map([...byCode].sort(([a], [b]) => a.localeCompare(b, 'en', { numeric: true })));
}

/** Every currency of the entries, first seen first. */
export function currenciesOf(entries: readonly JournalEntry[]): string[] {
  return [...new Set(entries.map((entry) => entry.currency))];
}

/** A sample amount with the currency's decimal places, for a commodity directive: 1000.00, 1000. */
export function commoditySample(currency: string): string {
  return `1000.${'0'.repeat(exponentOf(currency))}`;
}

function accountName(type: string, name: string, code: string): string {
  const root = ROOTS[type];
  if (!root) throw new AppError('internal', `Account ${code} has a type (${type}) that no plain-text journal knows`);
  return `${root}:${component(name) || `Account-${component(code)}`}`;
}

function component(words: string): string {
  return words
    .normalize('NFKD')
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((word) => word[0]?.toUpperCase() + word.slice(1))
    .join('-');
}

function countBy(values: string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  return counts;
}

/** One line of free text: control characters and line breaks become spaces. */
export function oneLine(value: string): string {
  return value.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim();
}
