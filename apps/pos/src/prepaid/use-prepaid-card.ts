import { randomUUID } from 'node:crypto';
import { AppError, countPayment, type Org, outboxInsert, paymentEventData, validate } from '@ctk/shared';
import { z } from 'zod';
import type { CardContext } from '../cards/card-context.js';
import { readCardIdentifier } from '../cards/card-identifier.js';
import type { OrderWithParts } from '../data/order-repository.js';
import {
  cardWithActivityOf,
  cardWithActivityRead,
  drawAtCommit,
  isRefusedDraw,
  orderAndCardForUse,
  readCard,
  type LockedCard,
  type PrepaidActivityRow,
  type PrepaidCardRow,
  useTargetsOf,
} from '../data/prepaid-card-repository.js';
import { orderPaidEvent, wholeOf } from '../orders/order-event.js';
import { releaseOrderHold } from '../orders/order-hold.js';
import { checkedOrderNumber } from '../orders/order-state.js';
import { expireOrders } from './expire-card-orders.js';
import { prepaidRedeemedEvent } from './prepaid-events.js';
import { isCardId, isCardsIdentifier, MAX_CARD_VALUE, noSuchCard, orgCard, orgOrder } from './prepaid-card-rules.js';
import { checkStoredValueMayPay, dueMinor, orderPartPaid, writeOrderPartPaid } from './stored-value-payment.js';
import { plus, restOf, useShares } from './use-shares.js';

const useSchema = z.object({
  id: z.string(),
  identifier: z.string().min(1, 'identifier is required: the card identifier the customer presented').max(100, 'identifier is too long'),
  orderNumber: z.string().max(100),
  amountMinor: z
    .bigint()
    .min(0n, 'amount_minor must not be negative')
    .max(MAX_CARD_VALUE, `amount_minor must be at most ${MAX_CARD_VALUE} (no card holds more)`),
});

export type UseInput = z.input<typeof useSchema>;
/** What a use answers: the card without its ledger, the order after the use, and the use's entry in the ledger. */
export type CardUse = { card: PrepaidCardRow; order: OrderWithParts; activity: PrepaidActivityRow };

/**
 * Staff take a prepaid card for all or part of an open order of their organisation in the card's currency
 * (decision 0017). The identifier the customer presented must be the card's. The order's row is locked,
 * then, last and for the draw alone, the card's: the balance is drawn with a conditional update that never
 * goes below zero, with the `redeem` activity in the same statement. The order's card_paid_minor and its
 * satoshis for the rest (at the order's own rate, rounded up), and `prepaid.redeemed` with the use's share of
 * the tax and tip, are written in the same transaction. A use that covers what is due makes the order paid at
 * once, and ends its output's hold. Each use is counted in ctk_payments_total (path gift_card): accepted,
 * refused or error.
 */
export function usePrepaidCard(cards: CardContext, org: Org, input: UseInput): Promise<CardUse> {
  return countPayment('gift_card', () => useCard(cards, org, input));
}

async function useCard(cards: CardContext, org: Org, input: UseInput, expireFirst = true): Promise<CardUse> {
  const request = validate(useSchema, input);
  const presented = readCardIdentifier(request.identifier, 'identifier');
  const orderNumber = checkedOrderNumber(request.orderNumber);
  const context = cards.orders;
  if (!isCardId(request.id)) throw noSuchCard();
  // The transaction without Prisma's client (decision 0048). Its draw is taken as it commits (decision 0050), so
  // concurrent uses of one card queue on its row lock for the commit alone.
  let refused: (Omit<Parameters<typeof refusal>[0], 'card'> & { cardId: string }) | undefined;
  const readAt = context.now();
  const { result, rows } = await context.sql
    .transactionThenRead(
      async (tx) => {
        // The card, the order and the card's orders past their expiry, in one statement that locks the order.
        const targets = await useTargetsOf(tx, request.id, orderNumber, org.id, readAt);
        const known = orgCard(org, targets.card);
        if (!isCardsIdentifier(known, presented.hash)) throw noSuchCard();
        const orderId = orgOrder(org, orderNumber, targets.order);
        // Value that uses on expired orders hold goes back first, each order in a transaction of its own: this use
        // may need it. This one ends (it wrote nothing) and the use starts again once they are expired.
        if (expireFirst && targets.expired.length > 0) return { expired: targets.expired };
        // After the lock, in a statement of its own, the order with its parts and beside it the card as committed, not
        // locked: the draw at the commit decides. "As much as the order needs" (0) reads the balance under the card's
        // lock, so that another use meanwhile cannot refuse it. With them, what stored value already paid.
        const { order, card, earlier } = (await orderAndCardForUse(tx, orderId, known.id, request.amountMinor === 0n))!;
        // A transfer may have re-keyed the card since it was read.
        if (!isCardsIdentifier(card, presented.hash)) throw noSuchCard();
        const now = context.now();
        const amount = amountToUse(card, order, request.amountMinor, now);
        const shares = useShares(wholeOf(order), earlier, amount);
        const paid = orderPartPaid(order, amount, now);
        // The part of the order that money pays: all of it less the cards' uses, this one included.
        const rest = restOf(wholeOf(order), plus(earlier, shares));
        const use = {
          id: randomUUID(),
          cardId: card.id,
          identifierHash: card.identifierHash,
          orderId: order.id,
          amountMinor: amount,
          taxMinor: shares.taxMinor,
          tipMinor: shares.tipMinor,
        };
        // The entry that completes the order carries its lines: this use's, unless money paid a rest. Written under
        // the id the use's activity will have: a refused draw rolls them back with the rest.
        const redeem = { id: use.id, cardId: card.id, occurredAt: now };
        const events = [prepaidRedeemedEvent(paid.order, redeem, shares, paid.completes && rest.amountMinor === 0n)];
        if (paid.completes && rest.amountMinor > 0n) {
          events.push(orderPaidEvent(paid.order, paid.order.payments.at(-1)?.txid ?? '', now, rest));
        }
        // The order's update, the events and the draw in one statement (decision 0063).
        await writeOrderPartPaid(tx, order, paid, [
          ...events.map((event) => outboxInsert(paymentEventData(event))),
          drawAtCommit(use, now),
        ]);
        refused = { presentedHash: presented.hash, cardId: known.id, order, amount, now };
        return { order: paid.order, cardId: known.id, activityId: use.id };
      },
      // The card as it now is (a later use may have drawn on it since) with this use's entry, and not its ledger
      // (decision 0051): read as the use commits, in one round trip with the COMMIT (decision 0064).
      (done) => (done.cardId === undefined ? undefined : cardWithActivityRead(done.cardId, done.activityId)),
    )
    .catch(async (error: unknown) => {
      // The card no longer allowed the draw as the use committed: why, from the card as it now is.
      if (refused && isRefusedDraw(error)) throw refusal({ ...refused, card: (await readCard(context.sql, refused.cardId))! });
      throw error;
    });
  if (result.expired) {
    await expireOrders(context, result.expired, readAt);
    return useCard(cards, org, input, false);
  }
  context.notifier.changed(result.order.id);
  context.eventsCommitted();
  // Paid by this use: a payment to its output could only be refunded now, so its hold ends (decision 0022).
  if (result.order.status === 'paid' || result.order.status === 'confirmed') await releaseOrderHold(context, result.order);
  const { card, activity } = cardWithActivityOf(rows)!;
  return { order: result.order, activity, card };
}

/** What this use takes: as asked, or (0) as much as the order still needs up to the balance. */
function amountToUse(card: LockedCard, order: OrderWithParts, asked: bigint, now: Date): bigint {
  checkStoredValueMayPay(order, card.currency, 'card', now);
  if (card.status === 'pending' || card.status === 'void') {
    throw new AppError(
      'card_not_active',
      card.status === 'pending'
        ? 'The card is not active yet: the order that sells it is not paid'
        : 'The card is void: it was never paid for',
      { status: card.status },
    );
  }
  const due = dueMinor(order);
  if (asked > card.balanceMinor) throw insufficientBalance(card.balanceMinor);
  if (asked > due) {
    throw new AppError('validation_failed', `amount_minor must be at most ${due}, what order ${order.orderNumber} still needs`, {
      field: 'amount_minor',
    });
  }
  const amount = asked || (card.balanceMinor < due ? card.balanceMinor : due);
  if (amount === 0n) throw insufficientBalance(card.balanceMinor);
  return amount;
}

/** Why the draw refused the use, from the card as it is now: re-keyed, not active, or holding too little. */
function refusal(refused: { card: LockedCard; presentedHash: string; order: OrderWithParts; amount: bigint; now: Date }): AppError {
  const { card, presentedHash, order, amount, now } = refused;
  if (!isCardsIdentifier(card, presentedHash)) return noSuchCard();
  try {
    amountToUse(card, order, amount, now);
  } catch (error) {
    return error as AppError;
  }
  return insufficientBalance(card.balanceMinor);
}

function insufficientBalance(balance: bigint): AppError {
  // Money in error details is a JSON integer, as in every answer (text only past 2^53, as the ledger's).
  const balanceMinor = balance <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(balance) : balance.toString();
  return new AppError('insufficient_balance', `The card holds ${balance}, less than this use asks`, { balance_minor: balanceMinor });
}
