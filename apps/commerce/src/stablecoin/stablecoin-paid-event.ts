import { PaymentEvent, PaymentEventType, Settlement } from '@ctk/proto/ctk/events/v1/payment_event';
import type { Order } from '@ctk/proto/ctk/pos/v1/pos';
import { orderEventLines, orderTaxRate } from '@ctk/shared';
import type { StablecoinIntentRow } from '../data/stablecoin-repository.js';

/**
 * `payment.received` of an intent paid in the stablecoin: the order's total, tax and tip as pos priced them,
 * at books' stablecoin asset account (SETTLEMENT_STABLECOIN), with the order's lines when they add up to it.
 */
export function stablecoinPaidEvent(intent: StablecoinIntentRow, order: Order, txid: string, paidAt: Date): PaymentEvent {
  const lines = orderEventLines(order, { totalMinor: intent.amountCents, taxMinor: intent.taxCents });
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
    lines,
    txid,
    occurredAt: paidAt,
    taxJurisdiction: order.taxJurisdiction,
    taxRate: orderTaxRate(order),
    description: `Order ${intent.orderNumber} paid in ${intent.symbol} (intent ${intent.id}, transfer ${txid})`,
  });
}
