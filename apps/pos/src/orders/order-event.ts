import { LineItem, PaymentEvent, PaymentEventType, Settlement } from '@ctk/proto/ctk/events/v1/payment_event';
import type { OrderWithParts } from '../data/order-repository.js';

/** What an event carries of the order: all of it, or the rest that prepaid cards did not pay (decision 0017). */
export type PaidPart = { amountMinor: bigint; taxMinor: bigint; tipMinor: bigint };

/**
 * The `payment.received` event of a paid order (decision 0015): the lines with their tax, the tip apart,
 * the fiat amount, the satoshis paid, the rate and its source. Its id is the order's: books posts it once.
 * It names the order by id and by number (`source_reference`).
 * When cards paid part of the order, the amount, tax and tip are the rest's; the lines are the order's
 * (this entry completes it: reports count its items once).
 */
export function orderPaidEvent(order: OrderWithParts, txid: string, paidAt: Date, part: PaidPart = wholeOf(order)): PaymentEvent {
  return PaymentEvent.fromPartial({
    id: `pos.order.${order.id}`,
    type: PaymentEventType.PAYMENT_EVENT_TYPE_PAYMENT_RECEIVED,
    organizationId: order.organizationId,
    sourceService: 'pos',
    sourceId: order.id,
    // The number is what commerce knows its checkout's order by (decision 0020).
    sourceReference: order.orderNumber,
    currency: order.currency,
    amountMinor: part.amountMinor,
    taxMinor: part.taxMinor,
    tipMinor: part.tipMinor,
    satoshis: order.paidSatoshis,
    exchangeRate: order.exchangeRate,
    rateSource: order.rateSource,
    settlement: Settlement.SETTLEMENT_BSV_WALLET,
    lines: eventLines(order),
    linesOfWholeOrder: part.amountMinor !== order.totalMinor,
    // A loyalty reward taken off the order (decision 0023): books post it to 4200 against revenue.
    rewardMinor: order.rewardMinor,
    // The referrer's commission (decision 0040), when the payments paid it to the referrer: books post it to 5100.
    commissionMinor: isCommissionPaid(order) ? order.commissionMinor : 0n,
    txid,
    occurredAt: paidAt,
    taxJurisdiction: order.taxJurisdiction,
    taxRate: taxRateOf(order),
    description: `Order ${order.orderNumber}`,
  });
}

/** Whether the order's payments paid its referrer the whole commission (decision 0040). */
export function isCommissionPaid(order: Pick<OrderWithParts, 'commissionSatoshis' | 'commissionPaidSatoshis'>): boolean {
  return order.commissionSatoshis > 0n && order.commissionPaidSatoshis >= order.commissionSatoshis;
}

export function wholeOf(order: OrderWithParts): PaidPart {
  return { amountMinor: order.totalMinor, taxMinor: order.taxMinor, tipMinor: order.tipMinor };
}

export function eventLines(order: OrderWithParts): LineItem[] {
  return order.lines.map((line) => ({
    itemId: line.itemId ?? '',
    name: line.name,
    quantity: line.quantity,
    unitPriceMinor: line.unitPriceMinor,
    taxMinor: line.taxMinor,
    totalMinor: line.totalMinor,
  }));
}

/** One rate when every line had the same; lines at several rates carry theirs in tax_minor. */
export function taxRateOf(order: OrderWithParts): string {
  const rates = new Set(order.lines.map((line) => line.taxRate));
  return rates.size === 1 ? [...rates][0]! : '';
}
