import { PaymentEventType, Settlement } from '@ctk/proto/ctk/events/v1/payment_event';
import type { AccountCode } from './chart-of-accounts.js';

export type PostingLine = { accountCode: AccountCode; debitMinor: bigint; creditMinor: bigint };
type Amounts = { amount: bigint; tax: bigint; tip: bigint; moneyIn: AccountCode };
type PostingRule = {
  /** The event's name in the journal, `<entity>.<past-tense>`. */
  eventType: string;
  settlements: readonly Settlement[];
  /** Whether the event may carry sales tax. */
  taxable: boolean;
  /** Whether the event may carry a tip (part of the amount owed to staff, untaxed, not revenue). */
  tips: boolean;
  lines(amounts: Amounts): PostingLine[];
};

const debit = (accountCode: AccountCode, minor: bigint): PostingLine => ({ accountCode, debitMinor: minor, creditMinor: 0n });
const credit = (accountCode: AccountCode, minor: bigint): PostingLine => ({ accountCode, debitMinor: 0n, creditMinor: minor });

/** The account money arrives in (or leaves from), by where it settles. */
export const MONEY_IN_ACCOUNTS: ReadonlyMap<Settlement, AccountCode> = new Map([
  [Settlement.SETTLEMENT_BSV_WALLET, '1010'],
  [Settlement.SETTLEMENT_PROVIDER_CLEARING, '1020'],
  [Settlement.SETTLEMENT_STABLECOIN, '1030'],
]);
const MONEY_MOVES = [...MONEY_IN_ACCOUNTS.keys()];

/** How each payment event type is posted. amount is tax and tip included; lines of zero are dropped later. */
export const POSTING_RULES: ReadonlyMap<PaymentEventType, PostingRule> = new Map([
  [
    PaymentEventType.PAYMENT_EVENT_TYPE_PAYMENT_RECEIVED,
    {
      eventType: 'payment.received',
      settlements: MONEY_MOVES,
      taxable: true,
      tips: true,
      lines: ({ amount, tax, tip, moneyIn }) => [
        debit(moneyIn, amount),
        credit('4000', amount - tax - tip),
        credit('2100', tax),
        credit('2400', tip),
      ],
    },
  ],
  [
    PaymentEventType.PAYMENT_EVENT_TYPE_PAYMENT_REFUNDED,
    {
      eventType: 'payment.refunded',
      settlements: MONEY_MOVES,
      taxable: true,
      tips: false,
      lines: ({ amount, tax, moneyIn }) => [debit('4100', amount - tax), debit('2100', tax), credit(moneyIn, amount)],
    },
  ],
  [
    PaymentEventType.PAYMENT_EVENT_TYPE_PREPAID_ISSUED,
    {
      eventType: 'prepaid.issued',
      settlements: MONEY_MOVES,
      // Selling stored value is not a sale: tax is owed when the card is redeemed.
      taxable: false,
      tips: false,
      lines: ({ amount, moneyIn }) => [debit(moneyIn, amount), credit('2200', amount)],
    },
  ],
  [
    PaymentEventType.PAYMENT_EVENT_TYPE_PREPAID_REDEEMED,
    {
      eventType: 'prepaid.redeemed',
      settlements: [Settlement.SETTLEMENT_NONE],
      taxable: true,
      tips: false,
      lines: ({ amount, tax }) => [debit('2200', amount), credit('4000', amount - tax), credit('2100', tax)],
    },
  ],
]);
