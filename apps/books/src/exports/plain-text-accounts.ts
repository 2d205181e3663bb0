import { AppError } from '@ctk/shared';
import type { UsedAccount } from './export-context.js';
import { exponentOf } from './minor-units.js';
import { singleLine } from './single-line.js';

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
export function plainTextAccounts(accounts: readonly UsedAccount[]): Map<string, PlainTextAccount> {
  const byCode = new Map<string, PlainTextAccount>(
    accounts.map((account) => [
      account.code,
      { name: accountName(account.type, account.name, account.code), type: account.type, currencies: [...account.currencies] },
    ]),
  );
  // Names that differ only in case would read as one account to a person.
  const shared = countBy([...byCode.values()].map((a) => a.name.toLowerCase()));
  for (const [code, account] of byCode) if ((shared.get(account.name.toLowerCase()) ?? 0) > 1) account.name += `-${component(code)}`;
  return new Map([...byCode].sort(([a], [b]) => a.localeCompare(b, 'en', { numeric: true })));
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

/**
 * One line of free text for a plain-text journal, where a line break would end the transaction: every
 * run of control characters (C0, DEL, C1) and Unicode line or paragraph separators becomes a space.
 */
export function oneLine(value: string): string {
  return singleLine(value).trim();
}
