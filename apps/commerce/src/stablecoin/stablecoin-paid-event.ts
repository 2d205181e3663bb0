import { PaymentEvent, PaymentEventType, Settlement } from '@ctk/proto/ctk/events/v1/payment_event';
import type { Order } from '@ctk/proto/ctk/pos/v1/pos';
import type { StablecoinIntentRow } from '../data/stablecoin-repository.js';

/**
 * `payment.received` of an intent paid in the stablecoin: the order's total, tax and tip as pos priced them,
 * at books' stablecoin asset account (SETTLEMENT_STABLECOIN), with the order's lines when they add up to it.
 */
export function stablecoinPaidEvent(intent: StablecoinIntentRow, order: Order, txid: string, paidAt: Date): PaymentEvent {
  const lines = order.lines.map((line) => ({
    itemId: line.itemId,
    name: line.name,
    quantity: line.quantity,
    unitPriceMinor: line.unitPriceMinor,
    taxMinor: line.taxMinor,
    totalMinor: line.totalMinor,
  }));
  const linesAddUp =
    lines.reduce((sum, line) => sum + line.totalMinor, 0n) + order.tipMinor === intent.amountCents &&
    lines.reduce((sum, line) => sum + line.taxMinor, 0n) === intent.taxCents;
  const rates = new Set(order.lines.map((line) => line.taxRate));
  return PaymentEvent.fromPartial({
    id: `commerce.stablecoin_payment.${intent.id}`,
    type: PaymentEventType.PAYMENT_EVENT_TYPE_PAYMENT_RECEIVED,
    organizationId: intent.organizationId,
    sourceService: 'commerce',
    sourceId: intent.id,
    currency: 'USD',
    amountMinor: intent.amountCents,
    taxMinor: intent.taxCents,
    tipMinor: order.tipMinor,
    settlement: Settlement.SETTLEMENT_STABLECOIN,
    lines: linesAddUp ? lines : [],
    txid,
    occurredAt: paidAt,
    taxJurisdiction: order.taxJurisdiction,
    taxRate: rates.size === 1 ? [...rates][0]! : '',
    description: `Order ${intent.orderNumber} paid in ${intent.symbol} (intent ${intent.id}, transfer ${txid})`,
  });
}
