import type { PaymentEvent } from '@ctk/proto/ctk/events/v1/payment_event';
import { AppError, type SqlQueries } from '@ctk/shared';
import type { OrderWithParts } from '../data/order-repository.js';
import { creditsSoldEvent } from '../credits/credits-events.js';
import { appendActivity, creditBalance } from '../data/prepaid-card-repository.js';
import { orderPaidEvent, wholeOf } from '../orders/order-event.js';
import { prepaidIssuedEvent } from './prepaid-events.js';
import { storedValuePaid } from './stored-value-payment.js';
import { restOf } from './use-shares.js';

/**
 * The event of an order a payment just completed, in that payment's transaction (decision 0017): an order
 * selling a prepaid card makes the card active at its value (activity `issue`) and tells `prepaid.issued`;
 * one selling credits tells `credits.sold` (decision 0036); any other tells `payment.received` for the rest
 * that stored value did not pay. Undefined when stored value paid it all.
 */
export async function paidOrderEvent(tx: SqlQueries, order: OrderWithParts, txid: string, now: Date): Promise<PaymentEvent | undefined> {
  if (order.prepaidCardId) {
    const credited = await creditBalance(tx, order.prepaidCardId, order.totalMinor, now, true);
    if (!credited) throw new AppError('internal', `The card order ${order.orderNumber} sells is not pending`);
    await appendActivity(tx, {
      cardId: order.prepaidCardId,
      sequence: credited.sequence,
      kind: 'issue',
      amountMinor: order.totalMinor,
      balanceAfterMinor: credited.balanceMinor,
      orderId: order.id,
      occurredAt: now,
    });
    return prepaidIssuedEvent(order, txid, now);
  }
  if (order.creditsTokenId) return creditsSoldEvent(order, txid, now);
  const rest = restOf(wholeOf(order), storedValuePaid(order));
  return rest.amountMinor > 0n ? orderPaidEvent(order, txid, now, rest) : undefined;
}
