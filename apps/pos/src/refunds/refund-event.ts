import { PaymentEvent, PaymentEventType, Settlement } from '@ctk/proto/ctk/events/v1/payment_event';
import type { OrderRefund, OrderWithParts } from '../data/order-repository.js';
import { taxRateOf } from '../orders/order-event.js';

/**
 * The `payment.refunded` event of a paid refund (decision 0033): its amount with its tax and tip, the
 * satoshis its transaction paid back, the order's rate. Its id is the refund's, so books posts it once
 * however often it is delivered; it names the order by id and number, as the order's payment.received does.
 */
export function refundPaidEvent(order: OrderWithParts, refund: OrderRefund, txid: string, paidAt: Date): PaymentEvent {
  return PaymentEvent.fromPartial({
    id: `pos.refund.${refund.id}`,
    type: PaymentEventType.PAYMENT_EVENT_TYPE_PAYMENT_REFUNDED,
    organizationId: order.organizationId,
    sourceService: 'pos',
    sourceId: order.id,
    sourceReference: order.orderNumber,
    currency: order.currency,
    amountMinor: refund.amountMinor,
    taxMinor: refund.taxMinor,
    tipMinor: refund.tipMinor,
    satoshis: refund.satoshis,
    exchangeRate: order.exchangeRate,
    rateSource: order.rateSource,
    settlement: Settlement.SETTLEMENT_BSV_WALLET,
    txid,
    occurredAt: paidAt,
    taxJurisdiction: order.taxJurisdiction,
    taxRate: refund.taxMinor > 0n ? taxRateOf(order) : '',
    description: `Refund of order ${order.orderNumber}${refund.reason ? `: ${refund.reason}` : ''}`,
  });
}
