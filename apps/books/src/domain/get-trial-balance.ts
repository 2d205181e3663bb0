import type { AccountBalance, GetTrialBalanceResponse, TrialBalance } from '@ctk/proto/ctk/books/v1/books';
import { calendarDate, type Org, validate } from '@ctk/shared';
import { z } from 'zod';
import type { BalanceRepository, PostedToAccount } from '../data/balance-repository.js';
import { localDateIn, timeZone } from './report-input.js';

const querySchema = z
  .object({ at: z.union([calendarDate('at'), z.literal('')]), timeZone })
  .transform((query) => ({ timeZone: query.timeZone, at: query.at || localDateIn(query.timeZone) }));

/** Assets and expenses grow by debits; liabilities, equity and income by credits. */
const DEBIT_NORMAL = new Set(['asset', 'expense']);

/**
 * Every account of the chart at the end of a local date (today by default), per currency: what was
 * posted to it, its balance on the trial balance's debit or credit side, and its balance on its normal
 * side. The debit and credit sides add up to the same total, since every entry balances.
 */
export async function getTrialBalance(
  balances: BalanceRepository,
  org: Org,
  input: z.input<typeof querySchema>,
): Promise<GetTrialBalanceResponse> {
  const query = validate(querySchema, input);
  const { endsBefore, rows } = await balances.postedBefore(org.id, query.at, query.timeZone);
  const currencies = [...new Set(rows.map((row) => row.currency))];
  return {
    at: query.at,
    timeZone: query.timeZone,
    endsBefore: endsBefore.toISOString(),
    balances: currencies.map((currency) =>
      trialBalance(
        currency,
        rows.filter((row) => row.currency === currency),
      ),
    ),
  };
}

function trialBalance(currency: string, rows: PostedToAccount[]): TrialBalance {
  const accounts = rows.map(accountBalance);
  return {
    currency,
    accounts,
    totalDebitMinor: accounts.reduce((sum, account) => sum + account.debitBalanceMinor, 0n),
    totalCreditMinor: accounts.reduce((sum, account) => sum + account.creditBalanceMinor, 0n),
  };
}

function accountBalance(row: PostedToAccount): AccountBalance {
  const debitNormal = DEBIT_NORMAL.has(row.type);
  const net = row.debits - row.credits;
  return {
    code: row.code,
    name: row.name,
    type: row.type,
    normalBalance: debitNormal ? 'debit' : 'credit',
    debitsMinor: row.debits,
    creditsMinor: row.credits,
    debitBalanceMinor: net > 0n ? net : 0n,
    creditBalanceMinor: net < 0n ? -net : 0n,
    balanceMinor: debitNormal ? net : -net,
  };
}
