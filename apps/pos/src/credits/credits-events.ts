import { PaymentEvent, PaymentEventType, Settlement } from '@ctk/proto/ctk/events/v1/payment_event';
import type { OrderCreditUse } from '../data/credit-use-repository.js';
import type { OrderWithParts } from '../data/order-repository.js';
import { eventLines } from '../orders/order-event.js';
import { orderEventCommon } from '../prepaid/prepaid-events.js';

/*
 * The payment events of a shop's credits token (decision 0036), each written to pos's outbox in the transaction
 * of the change it tells, as a prepaid card's are (prepaid-events.ts): credits sold are owed to the customer
 * (2350) until redeemed against an order.
 */

/** The order selling credits was paid: money in, a liability to the holder (books: Dr 1010, Cr 2350). Untaxed. */
export function creditsSoldEvent(order: OrderWithParts, txid: string, at: Date): PaymentEvent {
  return PaymentEvent.fromPartial({
    ...orderEventCommon(order, at),
    id: `pos.order.${order.id}`,
    type: PaymentEventType.PAYMENT_EVENT_TYPE_CREDITS_SOLD,
    sourceReference: order.orderNumber,
    amountMinor: order.totalMinor,
    satoshis: order.paidSatoshis,
    settlement: Settlement.SETTLEMENT_BSV_WALLET,
    lines: eventLines(order),
    txid,
    description: `Credits ${order.creditsTokenId} sold, order ${order.orderNumber}`,
  });
}

/**
 * Credits redeemed paid part of an order: the liability becomes revenue, tax and tip (books: Dr 2350, Cr 4000,
 * 2100, 2400). `completes`: they paid the rest of the order, so this entry carries the order's lines.
 */
export function creditsRedeemedEvent(order: OrderWithParts, use: OrderCreditUse, completes: boolean): PaymentEvent {
  return PaymentEvent.fromPartial({
    ...orderEventCommon(order, use.occurredAt),
    id: `pos.credits.redeem.${use.redemptionId}`,
    type: PaymentEventType.PAYMENT_EVENT_TYPE_CREDITS_REDEEMED,
    sourceReference: order.orderNumber,
    amountMinor: use.amountMinor,
    taxMinor: use.taxMinor,
    tipMinor: use.tipMinor,
    settlement: Settlement.SETTLEMENT_NONE,
    lines: completes ? eventLines(order) : [],
    linesOfWholeOrder: completes && use.amountMinor !== order.totalMinor,
    rewardMinor: completes ? order.rewardMinor : 0n,
    description: `${use.units} ${use.symbol} credits redeemed on order ${order.orderNumber}`,
  });
}

/** A redemption undone (its order expired or was cancelled): the value is owed to the holder again (books: Dr 4100, 2100, 2400, Cr 2350). */
export function creditsRestoredEvent(order: OrderWithParts, use: OrderCreditUse, at: Date): PaymentEvent {
  return PaymentEvent.fromPartial({
    ...orderEventCommon(order, at),
    id: `pos.credits.restore.${use.redemptionId}`,
    type: PaymentEventType.PAYMENT_EVENT_TYPE_CREDITS_RESTORED,
    sourceReference: order.orderNumber,
    amountMinor: use.amountMinor,
    taxMinor: use.taxMinor,
    tipMinor: use.tipMinor,
    settlement: Settlement.SETTLEMENT_NONE,
    description: `${use.units} ${use.symbol} credits redeemed on order ${order.orderNumber} owed again: the order ended unpaid`,
  });
}
