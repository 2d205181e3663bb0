import type { PaymentEvent } from '@ctk/proto/ctk/events/v1/payment_event';
import type { NewJournalEntry } from '../data/new-journal-entry.js';
import { problemsWith } from './check-payment-event.js';
import { MONEY_IN_ACCOUNTS, POSTING_RULES, type PostingLine } from './posting-rules.js';

export type BuiltEntry = { entry: NewJournalEntry } | { reason: string };

/** The balanced journal entry for a payment event, or why there can be none. */
export function buildJournalEntry(event: PaymentEvent): BuiltEntry {
  const problems = problemsWith(event);
  const rule = POSTING_RULES.get(event.type);
  const moneyIn = MONEY_IN_ACCOUNTS.get(event.settlement) ?? '1010'; // a redemption's rule never uses it
  if (problems.length > 0 || !rule || !event.occurredAt) return { reason: problems.join('; ') };
  const lines = rule
    .lines({
      amount: event.amountMinor,
      tax: event.taxMinor,
      tip: event.tipMinor,
      reward: event.rewardMinor,
      commission: event.commissionMinor,
      moneyIn,
    })
    .filter((line) => line.debitMinor !== 0n || line.creditMinor !== 0n);
  const unbalanced = imbalance(lines);
  if (unbalanced) return { reason: unbalanced };
  return {
    entry: {
      organizationId: event.organizationId,
      eventId: event.id,
      eventType: rule.eventType,
      occurredAt: event.occurredAt,
      currency: event.currency,
      description: event.description,
      sourceService: event.sourceService,
      sourceId: event.sourceId,
      sourceReference: event.sourceReference,
      txid: event.txid || null,
      satoshis: event.satoshis,
      exchangeRate: event.exchangeRate,
      rateSource: event.rateSource,
      taxJurisdiction: event.taxJurisdiction || null,
      taxRate: event.taxRate || null,
      amountMinor: event.amountMinor,
      taxMinor: event.taxMinor,
      tipMinor: event.tipMinor,
      lines: lines.map((line) => ({ ...line, memo: null })),
      items: event.lines.map((item) => ({
        itemId: item.itemId,
        name: item.name,
        quantity: item.quantity,
        unitPriceMinor: item.unitPriceMinor,
        taxMinor: item.taxMinor,
        totalMinor: item.totalMinor,
      })),
    },
  };
}

/** Why the lines do not make a balanced entry, or undefined when they do. */
export function imbalance(lines: readonly PostingLine[]): string | undefined {
  if (lines.length < 2) return 'an entry needs at least one debit and one credit';
  if (lines.some((l) => l.debitMinor < 0n || l.creditMinor < 0n || (l.debitMinor === 0n) === (l.creditMinor === 0n))) {
    return 'every line must be either a positive debit or a positive credit';
  }
  const debits = lines.reduce((sum, line) => sum + line.debitMinor, 0n);
  const credits = lines.reduce((sum, line) => sum + line.creditMinor, 0n);
  return debits === credits ? undefined : `unbalanced: debits ${debits} do not equal credits ${credits}`;
}
