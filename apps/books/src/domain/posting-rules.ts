import { PaymentEventType, Settlement } from '@ctk/proto/ctk/events/v1/payment_event';
import type { AccountCode } from './chart-of-accounts.js';

export type PostingLine = { accountCode: AccountCode; debitMinor: bigint; creditMinor: bigint };
/**
 * `reward`: a loyalty reward the sale gave (decision 0023), posted gross: Dr 4200, and revenue before it.
 * `commission`: the part of the amount paid straight to a referrer (decision 0040): Dr 5100, never in the money account.
 */
type Amounts = { amount: bigint; tax: bigint; tip: bigint; reward: bigint; commission: bigint; moneyIn: AccountCode };
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
      lines: ({ amount, tax, tip, reward, commission, moneyIn }) => [
        debit(moneyIn, amount - commission),
        debit('5100', commission),
        debit('4200', reward),
        credit('4000', amount - tax - tip + reward),
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
      // A refund of a paid order gives back its share of the tip too (decision 0033): no longer owed to staff.
      // A provider's refund carries none, and posts as before.
      tips: true,
      lines: ({ amount, tax, tip, moneyIn }) => [
        debit('4100', amount - tax - tip),
        debit('2100', tax),
        debit('2400', tip),
        credit(moneyIn, amount),
      ],
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
      lines: ({ amount, moneyIn }) => [debit(moneyIn, amount), credit('2300', amount)],
    },
  ],
  [
    PaymentEventType.PAYMENT_EVENT_TYPE_PREPAID_REDEEMED,
    {
      eventType: 'prepaid.redeemed',
      settlements: [Settlement.SETTLEMENT_NONE],
      taxable: true,
      // A card may pay part of an order with a tip: that part of the tip is owed to staff like any other.
      tips: true,
      lines: ({ amount, tax, tip, reward }) => [
        debit('2300', amount),
        debit('4200', reward),
        credit('4000', amount - tax - tip + reward),
        credit('2100', tax),
        credit('2400', tip),
      ],
    },
  ],
  [
    PaymentEventType.PAYMENT_EVENT_TYPE_PREPAID_RESTORED,
    {
      // A redemption undone (its order expired or was cancelled, decision 0017): the mirror of prepaid.redeemed,
      // its revenue to refunds as payment.refunded does, the value owed on the card again.
      eventType: 'prepaid.restored',
      settlements: [Settlement.SETTLEMENT_NONE],
      taxable: true,
      tips: true,
      lines: ({ amount, tax, tip }) => [debit('4100', amount - tax - tip), debit('2100', tax), debit('2400', tip), credit('2300', amount)],
    },
  ],
  [
    PaymentEventType.PAYMENT_EVENT_TYPE_CREDITS_SOLD,
    {
      // A shop's credits token sold for money (decision 0036): owed to the holder as goods, as a gift card is.
      eventType: 'credits.sold',
      settlements: MONEY_MOVES,
      taxable: false,
      tips: false,
      lines: ({ amount, moneyIn }) => [debit(moneyIn, amount), credit('2350', amount)],
    },
  ],
  [
    PaymentEventType.PAYMENT_EVENT_TYPE_CREDITS_REDEEMED,
    {
      // Credits redeemed against an order: the liability becomes revenue, tax and tip, as prepaid.redeemed.
      eventType: 'credits.redeemed',
      settlements: [Settlement.SETTLEMENT_NONE],
      taxable: true,
      tips: true,
      lines: ({ amount, tax, tip, reward }) => [
        debit('2350', amount),
        debit('4200', reward),
        credit('4000', amount - tax - tip + reward),
        credit('2100', tax),
        credit('2400', tip),
      ],
    },
  ],
  [
    PaymentEventType.PAYMENT_EVENT_TYPE_CREDITS_RESTORED,
    {
      // A redemption undone (its order expired or was cancelled): the mirror of credits.redeemed.
      eventType: 'credits.restored',
      settlements: [Settlement.SETTLEMENT_NONE],
      taxable: true,
      tips: true,
      lines: ({ amount, tax, tip }) => [debit('4100', amount - tax - tip), debit('2100', tax), debit('2400', tip), credit('2350', amount)],
    },
  ],
]);
