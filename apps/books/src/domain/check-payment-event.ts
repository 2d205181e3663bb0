import { PaymentEventType, settlementToJSON, type PaymentEvent } from '@ctk/proto/ctk/events/v1/payment_event';
import { z } from 'zod';
import { POSTING_RULES } from './posting-rules.js';

export const MAX_EVENT_ID_LENGTH = 200;
const uuid = z.guid();
const CURRENCY = /^[A-Z]{3}$/;
const DECIMAL = /^\d+(\.\d+)?$/;

/** Why the event cannot be posted, as many reasons as apply; none means it can. */
export function problemsWith(event: PaymentEvent): string[] {
  const rule = POSTING_RULES.get(event.type);
  const problems: string[] = [];
  const problem = (failed: boolean, reason: string) => {
    if (failed) problems.push(reason);
  };
  problem(event.id.length === 0 || event.id.length > MAX_EVENT_ID_LENGTH, `id must be 1 to ${MAX_EVENT_ID_LENGTH} characters`);
  problem(!rule, `type ${event.type} is not a payment event type books posts`);
  problem(!uuid.safeParse(event.organizationId).success, 'organization_id must be a UUID');
  problem(!CURRENCY.test(event.currency), 'currency must be an ISO 4217 code of three upper-case letters');
  problem(event.amountMinor <= 0n, 'amount_minor must be positive');
  problem(event.taxMinor < 0n, 'tax_minor must not be negative');
  problem(event.taxMinor > event.amountMinor, 'tax_minor must not exceed amount_minor, which includes it');
  problem(event.tipMinor < 0n, 'tip_minor must not be negative');
  problem(
    // Only when the tip is what tips it over: a tax alone above the amount is reported above.
    event.tipMinor > 0n &&
      event.taxMinor >= 0n &&
      event.taxMinor <= event.amountMinor &&
      event.taxMinor + event.tipMinor > event.amountMinor,
    'tax_minor + tip_minor must not exceed amount_minor, which includes both',
  );
  problem(event.satoshis < 0n, 'satoshis must not be negative');
  problem(event.rewardMinor < 0n, 'reward_minor must not be negative');
  problem(
    event.rewardMinor > 0n &&
      event.type !== PaymentEventType.PAYMENT_EVENT_TYPE_PAYMENT_RECEIVED &&
      event.type !== PaymentEventType.PAYMENT_EVENT_TYPE_PREPAID_REDEEMED &&
      event.type !== PaymentEventType.PAYMENT_EVENT_TYPE_CREDITS_REDEEMED,
    'reward_minor is carried by a sale (payment.received, prepaid.redeemed or credits.redeemed) only',
  );
  problem(event.commissionMinor < 0n, 'commission_minor must not be negative');
  problem(
    event.commissionMinor > 0n && event.type !== PaymentEventType.PAYMENT_EVENT_TYPE_PAYMENT_RECEIVED,
    'commission_minor is carried by a sale paid with money (payment.received) only',
  );
  problem(
    event.commissionMinor > 0n && event.commissionMinor > event.amountMinor - event.taxMinor - event.tipMinor,
    'commission_minor must not exceed what was sold (amount_minor less tax_minor and tip_minor)',
  );
  problem(event.exchangeRate !== '' && !DECIMAL.test(event.exchangeRate), 'exchange_rate must be a decimal string');
  problem(!event.occurredAt || Number.isNaN(event.occurredAt.getTime()), 'occurred_at is required');
  const texts = [
    event.sourceService,
    event.sourceId,
    event.sourceReference,
    event.description,
    event.txid,
    event.taxJurisdiction,
    event.taxRate,
    event.rateSource,
    ...event.lines.flatMap((line) => [line.itemId, line.name]),
  ];
  problem(
    texts.some((text) => text.includes('\u0000')),
    'text must not contain NUL characters',
  );
  problems.push(...problemsWithLines(event));
  if (rule) {
    problem(
      !rule.settlements.includes(event.settlement),
      `settlement ${settlementToJSON(event.settlement)} is not valid for ${rule.eventType}`,
    );
    problem(!rule.taxable && event.taxMinor !== 0n, `${rule.eventType} carries no sales tax: tax_minor must be 0`);
    problem(!rule.tips && event.tipMinor !== 0n, `${rule.eventType} carries no tip: tip_minor must be 0`);
  }
  return problems;
}

const MAX_LINE_NAME_LENGTH = 200;

/**
 * Line items are optional; when given, each must make sense and together they must make the event's
 * amounts less its tip: exactly, or at least when they are the whole order's of which the event pays the
 * last part (prepaid cards paid the rest, decision 0017).
 */
function problemsWithLines(event: PaymentEvent): string[] {
  if (event.lines.length === 0) return [];
  const problems = event.lines.flatMap((line, i) => {
    const at = `lines[${i}]`;
    return [
      line.name.trim() === '' || line.name.length > MAX_LINE_NAME_LENGTH
        ? `${at}.name must be 1 to ${MAX_LINE_NAME_LENGTH} characters`
        : '',
      line.quantity <= 0n ? `${at}.quantity must be positive` : '',
      line.unitPriceMinor < 0n || line.taxMinor < 0n || line.totalMinor < 0n ? `${at} amounts must not be negative` : '',
    ].filter(Boolean);
  });
  const total = event.lines.reduce((sum, line) => sum + line.totalMinor, 0n);
  const tax = event.lines.reduce((sum, line) => sum + line.taxMinor, 0n);
  const sold = event.amountMinor - event.tipMinor;
  if (event.linesOfWholeOrder) {
    if (total < sold) problems.push(`the lines' total_minor add up to ${total}, less than amount_minor - tip_minor ${sold}`);
    if (tax < event.taxMinor) problems.push(`the lines' tax_minor add up to ${tax}, less than tax_minor ${event.taxMinor}`);
    return problems;
  }
  if (total !== sold) problems.push(`the lines' total_minor add up to ${total}, not amount_minor - tip_minor ${sold}`);
  if (tax !== event.taxMinor) problems.push(`the lines' tax_minor add up to ${tax}, not tax_minor ${event.taxMinor}`);
  return problems;
}
