import { randomUUID } from 'node:crypto';
import {
  AppError,
  countPayment,
  groupCommit,
  isStatementRefused,
  type Org,
  outboxInsert,
  paymentEventData,
  type Statement,
  validate,
} from '@ctk/shared';
import { z } from 'zod';
import type { CardContext } from '../cards/card-context.js';
import { readCardIdentifier } from '../cards/card-identifier.js';
import type { OrderWithParts } from '../data/order-repository.js';
import {
  cardsWithActivityOf,
  cardsWithActivityRead,
  drawsAtCommit,
  isRefusedDraw,
  ordersAndCardsForUse,
  readCard,
  type LockedCard,
  type PrepaidActivityRow,
  type PrepaidCardRow,
  type Redeem,
  useTargetsOf,
} from '../data/prepaid-card-repository.js';
import { orderPaidEvent, wholeOf } from '../orders/order-event.js';
import { releaseOrderHold } from '../orders/order-hold.js';
import { checkedOrderNumber } from '../orders/order-state.js';
import { expireOrders } from './expire-card-orders.js';
import { prepaidRedeemedEvent } from './prepaid-events.js';
import { isCardId, isCardsIdentifier, MAX_CARD_VALUE, noSuchCard, orgCard, orgOrder } from './prepaid-card-rules.js';
import {
  checkStoredValueMayPay,
  dueMinor,
  orderPartPaid,
  type PartPaid,
  storedValuePaid,
  writeOrdersPartPaid,
} from './stored-value-payment.js';
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

/** A use as asked, checked: the card's id (a UUID), the identifier's hash, the order's number and the amount (0: as much as it needs). */
type Use = { org: Org; cardId: string; presentedHash: string; orderNumber: string; amountMinor: bigint };

/** The most uses one transaction takes, and how many such transactions run at once (decision 0065). */
const USES_TOGETHER = 32;
const USE_LANES = 3;

/**
 * Staff take a prepaid card for all or part of an open order of their organisation in the card's currency
 * (decision 0017). The identifier the customer presented must be the card's. The order's row is locked,
 * then, last and for the draw alone, the card's: the balance is drawn with a conditional update that never
 * goes below zero, with the `redeem` activity in the same statement. The order's card_paid_minor and its
 * satoshis for the rest (at the order's own rate, rounded up), and `prepaid.redeemed` with the use's share of
 * the tax and tip, are written in the same transaction. A use that covers what is due makes the order paid at
 * once, and ends its output's hold. Uses that arrive together share a transaction (decision 0065), each
 * answered as it would be alone. Each use is counted in ctk_payments_total (path gift_card): accepted,
 * refused or error.
 */
export function usePrepaidCard(cards: CardContext, org: Org, input: UseInput): Promise<CardUse> {
  return countPayment('gift_card', async () => {
    const use = checkedUse(org, input);
    // "As much as the order needs" (0) reads the balance under the card's lock: such a use goes alone.
    const outcome = use.amountMinor === 0n ? (await useCards(cards, [use]))[0]! : await queueOf(cards)(use);
    if (outcome instanceof Error) throw outcome;
    return outcome;
  });
}

function checkedUse(org: Org, input: UseInput): Use {
  const request = validate(useSchema, input);
  const presented = readCardIdentifier(request.identifier, 'identifier');
  const orderNumber = checkedOrderNumber(request.orderNumber);
  if (!isCardId(request.id)) throw noSuchCard();
  return { org, cardId: request.id, presentedHash: presented.hash, orderNumber, amountMinor: request.amountMinor };
}

/** Each app's uses, taken together while others are being written: no two on one order in a transaction. */
const queues = new WeakMap<CardContext, (use: Use) => Promise<CardUse | Error>>();

function queueOf(cards: CardContext): (use: Use) => Promise<CardUse | Error> {
  let queue = queues.get(cards);
  if (!queue) {
    queue = groupCommit((uses: Use[]) => useCards(cards, uses), {
      maxBatch: USES_TOGETHER,
      lanes: USE_LANES,
      spanName: 'pos.prepaid.use',
      keyOf: (use) => use.orderNumber,
    });
    queues.set(cards, queue);
  }
  return queue;
}

/**
 * The uses in one transaction, each answered (its answer or its error) as it would be alone. When the
 * transaction fails (a card that no longer allowed a draw as it committed, a lock lost to a deadlock), nothing of
 * it was kept and each use runs again alone; once it has committed, none runs again.
 */
async function useCards(cards: CardContext, uses: readonly Use[], expireFirst = true): Promise<Array<CardUse | Error>> {
  const committed = await useTogether(cards, uses, expireFirst).catch((error: unknown) => ({ failed: asError(error) }));
  if (!('failed' in committed)) return answered(cards, uses, committed);
  if (committed.failed instanceof OutcomeUnknown) {
    // Staff are told to read the cards; the platform team sees which uses, and what failed.
    const { failure } = committed.failed;
    const which = uses.map((use) => ({ cardId: use.cardId, orderNumber: use.orderNumber }));
    cards.orders.logger.error({ err: failure, uses: which }, 'card uses failed as they committed: whether they were made is unknown');
    return uses.map(() => outcomeUnknown());
  }
  if (uses.length === 1) return [committed.failed];
  return Promise.all(uses.map(async (use) => (await useCards(cards, [use], expireFirst))[0]!));
}

const asError = (error: unknown) => (error instanceof Error ? error : new Error(String(error)));

/** A use read and checked in its transaction, with what it writes. */
type Taken = { index: number; cardId: string; activityId: string; order: OrderWithParts };

/** What a transaction of uses committed: the uses it took, the answer read of them, and the others' answers so far. */
type Committed = {
  answers: Array<CardUse | Error | undefined>;
  taken: Taken[];
  rows: unknown[];
  expiring: { index: number; orders: string[] }[];
  readAt: Date;
};

/**
 * The uses' transaction: it throws when it failed, and wrote nothing, or OutcomeUnknown when it failed as it
 * committed and whether it did could not be read.
 */
async function useTogether(cards: CardContext, uses: readonly Use[], expireFirst: boolean): Promise<Committed> {
  const context = cards.orders;
  const answers: Array<CardUse | Error | undefined> = uses.map(() => undefined);
  const answer = (index: number, error: unknown) => (answers[index] = asError(error));
  // Uses whose cards have orders past their expiry: value that uses on them hold goes back first, each order in a
  // transaction of its own (this use may need it). These uses write nothing here, and start again once they are.
  const expiring: { index: number; orders: string[] }[] = [];
  // What a use alone checked before its draw: why the draw was refused at the commit is told from it.
  let refused: (Omit<Parameters<typeof refusal>[0], 'card'> & { cardId: string }) | undefined;
  // The uses written, once the transaction's work is done and it commits: whether it did is told by their entries.
  let committing: Taken[] = [];
  const readAt = context.now();
  // The transaction without Prisma's client (decision 0048). Its draws are taken as it commits (decision 0050), so
  // concurrent uses of one card queue on its row lock for the commit alone.
  const { result: taken, rows } = await context.sql
    .transactionThenRead(
      async (tx) => {
        // The cards, the orders and the cards' orders past their expiry, in one statement that locks the orders.
        const keys = uses.map((use) => ({ cardId: use.cardId, orderNumber: use.orderNumber, organizationId: use.org.id }));
        const found: { index: number; cardId: string; orderId: string }[] = [];
        (await useTargetsOf(tx, keys, readAt)).forEach((targets, index) => {
          const use = uses[index]!;
          try {
            const known = orgCard(use.org, targets.card);
            if (!isCardsIdentifier(known, use.presentedHash)) throw noSuchCard();
            const orderId = orgOrder(use.org, use.orderNumber, targets.order);
            if (expireFirst && targets.expired.length > 0) expiring.push({ index, orders: targets.expired });
            else found.push({ index, cardId: known.id, orderId });
          } catch (error) {
            answer(index, error);
          }
        });
        if (found.length === 0) return [];
        // After the locks, in a statement of its own, each order with its parts and beside it the card as committed,
        // not locked: the draw at the commit decides. "As much as the order needs" (0, alone) reads the balance under
        // the card's lock, so that another use meanwhile cannot refuse it. The order keeps what stored value already paid.
        const alone = uses.length === 1 && uses[0]!.amountMinor === 0n;
        const read = await ordersAndCardsForUse(tx, found, alone);
        const now = context.now();
        const written: { locked: OrderWithParts; paid: PartPaid }[] = [];
        const events: Statement[] = [];
        const draws: Redeem[] = [];
        const taken: Taken[] = [];
        found.forEach(({ index }, at) => {
          const use = uses[index]!;
          try {
            const { order, card } = read[at]!;
            // A transfer may have re-keyed the card since it was read.
            if (!isCardsIdentifier(card, use.presentedHash)) throw noSuchCard();
            const amount = amountToUse(card, order, use.amountMinor, now);
            const earlier = storedValuePaid(order);
            const shares = useShares(wholeOf(order), earlier, amount);
            const paid = orderPartPaid(order, shares, now);
            // The part of the order that money pays: all of it less the cards' uses, this one included.
            const rest = restOf(wholeOf(order), plus(earlier, shares));
            const draw = {
              id: randomUUID(),
              cardId: card.id,
              identifierHash: card.identifierHash,
              orderId: order.id,
              amountMinor: amount,
              taxMinor: shares.taxMinor,
              tipMinor: shares.tipMinor,
            };
            // The entry that completes the order carries its lines: this use's, unless money paid a rest. Written
            // under the id the use's activity will have: a refused draw rolls them back with the rest.
            const redeem = { id: draw.id, cardId: card.id, occurredAt: now };
            events.push(
              outboxInsert(paymentEventData(prepaidRedeemedEvent(paid.order, redeem, shares, paid.completes && rest.amountMinor === 0n))),
            );
            if (paid.completes && rest.amountMinor > 0n) {
              events.push(outboxInsert(paymentEventData(orderPaidEvent(paid.order, paid.order.payments.at(-1)?.txid ?? '', now, rest))));
            }
            written.push({ locked: order, paid });
            draws.push(draw);
            taken.push({ index, cardId: card.id, activityId: draw.id, order: paid.order });
            if (uses.length === 1) refused = { presentedHash: use.presentedHash, cardId: card.id, order, amount, now };
          } catch (error) {
            answer(index, error);
          }
        });
        // The orders' updates, the events and the draws in one statement (decision 0063).
        if (taken.length > 0) await writeOrdersPartPaid(tx, written, [...events, drawsAtCommit(draws, now)]);
        committing = taken;
        return taken;
      },
      // The cards as they now are (a later use may have drawn on them since) with each use's entry, and not their
      // ledgers (decision 0051): read as the uses commit, in one round trip with the COMMIT (decision 0064).
      (taken) => (taken.length === 0 ? undefined : cardsWithActivityRead(taken)),
      // Its statements take the uses' arrays and find every row by key: planned once a connection (decision 0066).
      { genericPlans: true },
    )
    .catch(async (error: unknown) => {
      if (isRefusedDraw(error)) {
        // The card no longer allowed the draw of a use alone as it committed: why, from the card as it now is.
        if (refused) throw refusal({ ...refused, card: (await readCard(context.sql, refused.cardId))! });
        throw error;
      }
      // A transaction whose work did not finish kept nothing.
      if (committing.length === 0) throw error;
      // What failed as it committed may have come after the commit (the answer's read goes with the COMMIT,
      // decision 0064), or left it unknown (a connection lost). The uses' entries, written as it commits, tell:
      // read again, they are the answers. None, and the database refused the commit: nothing was kept.
      const read = cardsWithActivityRead(committing);
      const rows = await context.sql.rows(read.text, read.args).catch(() => {
        throw new OutcomeUnknown(error);
      });
      if (cardsWithActivityOf(rows, committing.length).some(Boolean)) return { result: committing, rows };
      if (isStatementRefused(error)) throw error;
      throw new OutcomeUnknown(error);
    });
  return { answers, taken, rows, expiring, readAt };
}

/**
 * A transaction of uses failed as it committed, and whether it did is unknown (its entries could not be read, or a
 * commit that failed otherwise than refused may yet be made): no use of it may run again.
 */
class OutcomeUnknown extends Error {
  constructor(readonly failure: unknown) {
    super('whether the card uses committed could not be read');
  }
}

/** Each use's answer once its transaction committed; uses whose cards had expired orders run after them, alone. */
async function answered(cards: CardContext, uses: readonly Use[], committed: Committed): Promise<Array<CardUse | Error>> {
  const context = cards.orders;
  const { answers, taken, rows, expiring, readAt } = committed;
  if (taken.length > 0) {
    for (const { order } of taken) context.notifier.changed(order.id);
    context.eventsCommitted();
  }
  const read = cardsWithActivityOf(rows, taken.length);
  await Promise.all(
    taken.map(async ({ index, order }, at) => {
      // Paid by this use: a payment to its output could only be refunded now, so its hold ends (decision 0022).
      if (order.status === 'paid' || order.status === 'confirmed') await releaseOrderHold(context, order);
      const { card, activity } = read[at]!;
      answers[index] = { order, activity, card };
    }),
  );
  if (expiring.length > 0) {
    await expireOrders(context, [...new Set(expiring.flatMap(({ orders }) => orders))], readAt);
    await Promise.all(
      expiring.map(async ({ index }) => {
        answers[index] = (await useCards(cards, [uses[index]!], false))[0]!;
      }),
    );
  }
  return answers as Array<CardUse | Error>;
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

function outcomeUnknown(): AppError {
  return new AppError(
    'unavailable',
    'The database failed as this card use was being committed: read the card and the order to see whether it was made before trying again',
  );
}

function insufficientBalance(balance: bigint): AppError {
  // Money in error details is a JSON integer, as in every answer (text only past 2^53, as the ledger's).
  const balanceMinor = balance <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(balance) : balance.toString();
  return new AppError('insufficient_balance', `The card holds ${balance}, less than this use asks`, { balance_minor: balanceMinor });
}
