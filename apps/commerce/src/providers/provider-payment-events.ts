import { PaymentEvent, PaymentEventType, Settlement } from '@ctk/proto/ctk/events/v1/payment_event';
import type { Order } from '@ctk/proto/ctk/pos/v1/pos';
import { orderEventLines, orderTaxRate } from '@ctk/shared';
import type { Checkout } from '../data/checkout-repository.js';
import type { ProviderPayment, RefundFigures } from '../data/provider-payment-repository.js';

/**
 * `payment.received` of a checkout paid through a provider (decision 0019): the checkout's total and tax
 * as pos priced them, settled to the provider's clearing account, with the order's lines when they add up
 * (they always should: a checkout has no tip nor discount) so that reports count the items.
 */
export function providerPaidEvent(input: {
  paymentId: string;
  checkout: Checkout;
  order: Order | undefined;
  provider: string;
  paymentRef: string;
  paidAt: Date;
}): PaymentEvent {
  const { checkout, order } = input;
  const lines = orderEventLines(order, checkout);
  return PaymentEvent.fromPartial({
    id: `commerce.provider_payment.${input.paymentId}`,
    type: PaymentEventType.PAYMENT_EVENT_TYPE_PAYMENT_RECEIVED,
    organizationId: checkout.organizationId,
    sourceService: 'commerce',
    sourceId: checkout.id,
    sourceReference: checkout.orderNumber,
    currency: checkout.currency,
    amountMinor: checkout.totalMinor,
    taxMinor: checkout.taxMinor,
    settlement: Settlement.SETTLEMENT_PROVIDER_CLEARING,
    lines,
    occurredAt: input.paidAt,
    taxJurisdiction: order?.taxJurisdiction ?? '',
    taxRate: lines.length > 0 ? orderTaxRate(order) : '',
    description: `Checkout ${checkout.orderNumber} paid through the ${input.provider} (${input.paymentRef})`,
  });
}

/**
 * `payment.refunded` of what this refund returns (tax in proportion, the rest of it with the last refund), naming
 * the checkout's order by its number as the payment did.
 */
export function providerRefundedEvent(payment: ProviderPayment, figures: RefundFigures, orderNumber: string, now: Date): PaymentEvent {
  return PaymentEvent.fromPartial({
    id: `commerce.provider_refund.${payment.id}.${payment.refundCount}`,
    type: PaymentEventType.PAYMENT_EVENT_TYPE_PAYMENT_REFUNDED,
    organizationId: payment.organizationId,
    sourceService: 'commerce',
    sourceId: payment.checkoutId,
    sourceReference: orderNumber,
    currency: payment.currency,
    amountMinor: figures.deltaMinor,
    taxMinor: figures.deltaTax,
    settlement: Settlement.SETTLEMENT_PROVIDER_CLEARING,
    occurredAt: now,
    description: `Refund through the ${payment.provider} (${payment.paymentRef}): ${figures.refundedMinor} of ${payment.amountMinor} refunded`,
  });
}

/**
 * What a refund with the provider's refunded total `refundedMinor` returns now: undefined when it adds
 * nothing. Tax goes back in proportion (rounded down), its remainder with the refund that completes it.
 */
export function refundFigures(payment: ProviderPayment, refundedMinor: bigint): RefundFigures | undefined {
  const total = refundedMinor > payment.amountMinor ? payment.amountMinor : refundedMinor;
  if (total <= payment.refundedMinor) return undefined;
  const taxTotal = total === payment.amountMinor ? payment.taxMinor : (payment.taxMinor * total) / payment.amountMinor;
  return {
    refundedMinor: total,
    refundedTax: taxTotal,
    deltaMinor: total - payment.refundedMinor,
    deltaTax: taxTotal - payment.refundedTax,
  };
}
