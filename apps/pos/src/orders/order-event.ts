import { PaymentEvent, PaymentEventType, Settlement } from '@ctk/proto/ctk/events/v1/payment_event';
import type { OrderWithParts } from '../data/order-repository.js';

/**
 * The `payment.received` event of a paid order (decision 0015): the lines with their tax, the tip apart,
 * the fiat amount, the satoshis paid, the rate and its source. Its id is the order's: books posts it once.
 */
export function orderPaidEvent(order: OrderWithParts, txid: string, paidAt: Date): PaymentEvent {
  const rates = new Set(order.lines.map((line) => line.taxRate));
  return PaymentEvent.fromPartial({
    id: `pos.order.${order.id}`,
    type: PaymentEventType.PAYMENT_EVENT_TYPE_PAYMENT_RECEIVED,
    organizationId: order.organizationId,
    sourceService: 'pos',
    sourceId: order.id,
    currency: order.currency,
    amountMinor: order.totalMinor,
    taxMinor: order.taxMinor,
    tipMinor: order.tipMinor,
    satoshis: order.paidSatoshis,
    exchangeRate: order.exchangeRate,
    rateSource: order.rateSource,
    settlement: Settlement.SETTLEMENT_BSV_WALLET,
    lines: order.lines.map((line) => ({
      itemId: line.itemId ?? '',
      name: line.name,
      quantity: line.quantity,
      unitPriceMinor: line.unitPriceMinor,
      taxMinor: line.taxMinor,
      totalMinor: line.totalMinor,
    })),
    txid,
    occurredAt: paidAt,
    taxJurisdiction: order.taxJurisdiction,
    // One rate when every line had the same; lines at several rates carry theirs in tax_minor.
    taxRate: rates.size === 1 ? [...rates][0] : '',
    description: `Order ${order.orderNumber}`,
  });
}
