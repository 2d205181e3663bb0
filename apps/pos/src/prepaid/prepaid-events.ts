import { PaymentEvent, PaymentEventType, Settlement } from '@ctk/proto/ctk/events/v1/payment_event';
import type { OrderWithParts } from '../data/order-repository.js';
import type { PrepaidCardActivity } from '../data/prepaid-card-repository.js';
import { eventLines, taxRateOf } from '../orders/order-event.js';
import type { Shares } from './use-shares.js';

/*
 * The payment events of prepaid cards (decision 0017), each written to pos's outbox in the transaction of
 * the change it tells, with an id books deduplicates on: the selling order's (a sale event, as
 * payment.received's), or the activity's.
 */

/** The selling order was paid: money in, a liability to the holder (books: Dr 1010, Cr 2300). No tax: selling stored value is no sale. */
export function prepaidIssuedEvent(order: OrderWithParts, txid: string, at: Date): PaymentEvent {
  return PaymentEvent.fromPartial({
    ...orderEventCommon(order, at),
    id: `pos.order.${order.id}`,
    type: PaymentEventType.PAYMENT_EVENT_TYPE_PREPAID_ISSUED,
    amountMinor: order.totalMinor,
    satoshis: order.paidSatoshis,
    settlement: Settlement.SETTLEMENT_BSV_WALLET,
    lines: eventLines(order),
    txid,
    description: `Gift card ${order.prepaidCardId} sold, order ${order.orderNumber}`,
  });
}

/**
 * A use paid part of an order: the liability becomes revenue, tax and tip (books: Dr 2300, Cr 4000, 2100,
 * 2400). `completes`: the use paid the rest of the order, so this entry carries the order's lines.
 */
export function prepaidRedeemedEvent(
  order: OrderWithParts,
  redeem: Pick<PrepaidCardActivity, 'id' | 'cardId' | 'occurredAt'>,
  shares: Shares,
  completes: boolean,
): PaymentEvent {
  return PaymentEvent.fromPartial({
    ...orderEventCommon(order, redeem.occurredAt),
    id: `pos.prepaid.redeem.${redeem.id}`,
    type: PaymentEventType.PAYMENT_EVENT_TYPE_PREPAID_REDEEMED,
    amountMinor: shares.amountMinor,
    taxMinor: shares.taxMinor,
    tipMinor: shares.tipMinor,
    settlement: Settlement.SETTLEMENT_NONE,
    lines: completes ? eventLines(order) : [],
    linesOfWholeOrder: completes && shares.amountMinor !== order.totalMinor,
    // The entry that carries the order's lines carries its loyalty reward too (decision 0023): posted once.
    rewardMinor: completes ? order.rewardMinor : 0n,
    description: `Gift card ${redeem.cardId} used on order ${order.orderNumber}`,
  });
}

/**
 * A use undone (its order expired or was cancelled): the value is back on the card (books: Dr 4100,
 * 2100, 2400, Cr 2300). Its id is the use's, so that a use is restored in the books once.
 */
export function prepaidRestoredEvent(order: OrderWithParts, redeem: PrepaidCardActivity, at: Date): PaymentEvent {
  return PaymentEvent.fromPartial({
    ...orderEventCommon(order, at),
    id: `pos.prepaid.restore.${redeem.id}`,
    type: PaymentEventType.PAYMENT_EVENT_TYPE_PREPAID_RESTORED,
    amountMinor: -redeem.amountMinor,
    taxMinor: redeem.taxMinor,
    tipMinor: redeem.tipMinor,
    settlement: Settlement.SETTLEMENT_NONE,
    description: `Gift card ${redeem.cardId} use on order ${order.orderNumber} restored`,
  });
}

/** What every stored-value event says of its order. */
export function orderEventCommon(order: OrderWithParts, at: Date): Partial<PaymentEvent> {
  return {
    organizationId: order.organizationId,
    sourceService: 'pos',
    sourceId: order.id,
    sourceReference: order.orderNumber,
    currency: order.currency,
    exchangeRate: order.exchangeRate,
    rateSource: order.rateSource,
    occurredAt: at,
    taxJurisdiction: order.taxJurisdiction,
    taxRate: taxRateOf(order),
  };
}
