import { AppError, enqueuePaymentEvent, type SqlQueries } from '@ctk/shared';
import { creditsRestoredEvent } from '../credits/credits-events.js';
import { liveCreditUsesOf, markCreditUseRestored } from '../data/credit-use-repository.js';
import type { OrderWithParts } from '../data/order-repository.js';
import { appendActivity, creditBalance, liveRedeemsOf, lockCard, voidPendingCard } from '../data/prepaid-card-repository.js';
import { satoshisFor } from '../rates/exchange-rate.js';
import { prepaidRestoredEvent } from './prepaid-events.js';

/** The order's fields to write with its new status once its cards are released. */
export type ReleasedOrder = { cardPaidMinor?: bigint; cardPaidTaxMinor?: bigint; cardPaidTipMinor?: bigint; satoshis?: bigint };

/**
 * In the transaction that expires or cancels an order, with the order's row locked (decision 0017): each
 * use of a card on it that stands is restored to its card (activity `restore`, `prepaid.restored` in the
 * outbox), each use of credits is owed to its holder again (`credits.restored`, decision 0036: the units are
 * at the shop's redemption address, for staff to send back), and the card the order sells, if any, becomes void. The locked order row makes this happen once:
 * its status changes in the same transaction, and a restore's `restores_id` is unique besides. Cards are
 * locked in id order, so two releases never wait on each other. Answers the order's fields to write: no
 * card paid any of it, so its satoshis are the whole total's again (a late payment pays all of it). The
 * caller's change of the order's status publishes its change too, and wakes the relay once committed.
 */
export async function releaseOrderCards(tx: SqlQueries, order: OrderWithParts, now: Date): Promise<{ changes: ReleasedOrder }> {
  if (order.prepaidCardId) await voidPendingCard(tx, order.prepaidCardId, now);
  if (order.cardPaidMinor === 0n) return { changes: {} };
  const redeems = await liveRedeemsOf(tx, order.id);
  for (const redeem of redeems) {
    await lockCard(tx, redeem.cardId);
    const credited = await creditBalance(tx, redeem.cardId, -redeem.amountMinor, now);
    if (!credited) throw new AppError('internal', `A card used on order ${order.orderNumber} cannot take its use back`);
    await appendActivity(tx, {
      cardId: redeem.cardId,
      sequence: credited.sequence,
      kind: 'restore',
      amountMinor: -redeem.amountMinor,
      balanceAfterMinor: credited.balanceMinor,
      taxMinor: redeem.taxMinor,
      tipMinor: redeem.tipMinor,
      orderId: order.id,
      restoresId: redeem.id,
      occurredAt: now,
    });
    await enqueuePaymentEvent(tx, prepaidRestoredEvent(order, redeem, now));
  }
  const creditUses = await liveCreditUsesOf(tx, order.id);
  for (const use of creditUses) {
    await markCreditUseRestored(tx, use.id, now);
    await enqueuePaymentEvent(tx, creditsRestoredEvent(order, use, now));
  }
  return {
    changes: { cardPaidMinor: 0n, cardPaidTaxMinor: 0n, cardPaidTipMinor: 0n, satoshis: satoshisFor(order.totalMinor, order.exchangeRate) },
  };
}
