import type { AccountBalance, BusyHour, SalesReportRow, TopItem, TrialBalance } from '@ctk/proto/ctk/books/v1/books';
import { exactInteger } from '../ledger/minor-units.js';
import type { AccountBalancesAnswer, BusyHourAnswer, SalesRowAnswer, TopItemAnswer, TrialBalanceAnswer } from './report-answers.js';

/**
 * The reports as the API shows them: snake_case, amounts as integers of minor units of `currency`
 * (a string only past 2^53, where a JSON number would not be exact).
 */
export function salesRowView(row: SalesReportRow): SalesRowAnswer {
  return {
    period: row.period,
    currency: row.currency,
    orders: exactInteger(row.orders),
    gross_minor: exactInteger(row.grossMinor),
    tax_minor: exactInteger(row.taxMinor),
    net_minor: exactInteger(row.netMinor),
    refunds_minor: exactInteger(row.refundsMinor),
    refunds_tax_minor: exactInteger(row.refundsTaxMinor),
    net_after_refunds_minor: exactInteger(row.netAfterRefundsMinor),
    gift_cards_sold_minor: exactInteger(row.giftCardsSoldMinor),
    tips_minor: exactInteger(row.tipsMinor),
  };
}

export function topItemView(item: TopItem): TopItemAnswer {
  return {
    currency: item.currency,
    rank: item.rank,
    item_id: item.itemId || null,
    name: item.name,
    quantity: exactInteger(item.quantity),
    gross_minor: exactInteger(item.grossMinor),
    tax_minor: exactInteger(item.taxMinor),
    refunded_quantity: exactInteger(item.refundedQuantity),
    refunded_minor: exactInteger(item.refundedMinor),
  };
}

export function busyHourView(hour: BusyHour): BusyHourAnswer {
  return { currency: hour.currency, hour: hour.hour, orders: exactInteger(hour.orders), gross_minor: exactInteger(hour.grossMinor) };
}

/** A trial balance: each account's balance in the debit or the credit column, and the two equal totals. */
export function trialBalanceView(balance: TrialBalance): TrialBalanceAnswer {
  return {
    currency: balance.currency,
    accounts: balance.accounts.map((account) => ({
      ...accountFacts(account),
      debit_minor: exactInteger(account.debitBalanceMinor),
      credit_minor: exactInteger(account.creditBalanceMinor),
      balance_minor: exactInteger(account.balanceMinor),
    })),
    total_debit_minor: exactInteger(balance.totalDebitMinor),
    total_credit_minor: exactInteger(balance.totalCreditMinor),
  };
}

/** Account balances: what was posted to each account and its balance, positive on its normal side. */
export function accountBalancesView(balance: TrialBalance): AccountBalancesAnswer {
  return {
    currency: balance.currency,
    accounts: balance.accounts.map((account) => ({
      ...accountFacts(account),
      debits_minor: exactInteger(account.debitsMinor),
      credits_minor: exactInteger(account.creditsMinor),
      balance_minor: exactInteger(account.balanceMinor),
    })),
  };
}

function accountFacts(account: AccountBalance) {
  return { code: account.code, name: account.name, type: account.type, normal_balance: account.normalBalance };
}
