import { AppError, type SqlQueries, type Statement, writeTogether } from '@ctk/shared';
import { takeFromStock } from '../data/item-repository.js';
import { checkOrderUpdated, orderUpdate, type OrderChanges, type OrderWithParts } from '../data/order-repository.js';
import { stampPaidOrder } from '../loyalty/stamp-paid-order.js';
import { statusAt } from '../orders/order-state.js';
import { beingPaid, isClaimedByAnother } from '../orders/payment-claim.js';
import { parseDecimal, satoshisFor } from '../rates/exchange-rate.js';
import type { Shares } from './use-shares.js';

/*
 * Stored value paying part or all of an order: a prepaid card's use (decision 0017) or credits redeemed on the
 * chain (decision 0036). Both add to the order's card_paid_minor, so that its satoshis are for the rest.
 */

/** Refuses an order that `what` (a card, credits) in `currency` may not pay now. */
export function checkStoredValueMayPay(order: OrderWithParts, currency: string, what: 'card' | 'credits', now: Date): void {
  const status = statusAt(order, now);
  const named = what === 'card' ? 'a card' : 'credits';
  if (status !== 'open')
    throw new AppError('failed_precondition', `Order ${order.orderNumber} is ${status}: ${named} pay only an open order`, {
      reason: status,
    });
  // The BIP270 payment being broadcast pays what was due before this use: the stored value would pay it twice.
  if (isClaimedByAnother(order, now)) throw beingPaid(order, `${named} cannot pay part of it now`);
  if (order.prepaidCardId || order.creditsTokenId) {
    const sells = order.prepaidCardId ? 'a gift card' : 'credits';
    throw new AppError('failed_precondition', `Order ${order.orderNumber} sells ${sells}: it is paid with money, not with stored value`, {
      reason: 'sells_stored_value',
    });
  }
  // Its payment is fixed with the referrer's commission in it (decision 0040): a part paid otherwise would leave it unpaid.
  if (order.commissionSatoshis > 0n)
    throw new AppError(
      'failed_precondition',
      `Order ${order.orderNumber} was sold through a referral link: it is paid with money, not with stored value`,
      {
        reason: 'referral_order',
      },
    );
  if (order.currency !== currency) {
    throw new AppError(
      'failed_precondition',
      `The ${what} ${what === 'card' ? 'is' : 'are'} in ${currency} and order ${order.orderNumber} in ${order.currency}`,
      {
        reason: 'currency',
      },
    );
  }
}

/**
 * What the order still needs in minor units: what stored value has not paid, less what its satoshis paid so
 * far are worth at its rate (rounded down, so that a use of it brings the satoshis due to what is paid).
 */
export function dueMinor(order: OrderWithParts): bigint {
  const rest = order.totalMinor - order.cardPaidMinor;
  const { numerator, denominator } = parseDecimal(order.exchangeRate, 'exchange_rate');
  const paid = numerator === 0n ? 0n : (order.paidSatoshis * denominator) / numerator;
  return rest > paid ? rest - paid : 0n;
}

/** What the order's stored-value uses that stand paid of it, with the tax and tip they carried (kept on its row). */
export function storedValuePaid(order: Pick<OrderWithParts, 'cardPaidMinor' | 'cardPaidTaxMinor' | 'cardPaidTipMinor'>): Shares {
  return { amountMinor: order.cardPaidMinor, taxMinor: order.cardPaidTaxMinor, tipMinor: order.cardPaidTipMinor };
}

/** What a use of stored value makes of the order (orderPartPaid), written by writeOrderPartPaid. */
export type PartPaid = { order: OrderWithParts; changes: OrderChanges; completes: boolean };

/**
 * The order, read under its lock, with a use of `use` paid, not written yet: card_paid_minor rises by its amount
 * (its tax and tip columns by the use's), and its satoshis become the rest's at its own rate. When what is already
 * paid in satoshis covers them, the order is paid (confirmed when every payment is mined, or there is none).
 */
export function orderPartPaid(order: OrderWithParts, use: Shares, now: Date): PartPaid {
  const cardPaidMinor = order.cardPaidMinor + use.amountMinor;
  const satoshis = satoshisFor(order.totalMinor - cardPaidMinor, order.exchangeRate);
  const completes = order.paidSatoshis >= satoshis;
  const flags = new Set(order.flags);
  if (order.paidSatoshis > satoshis) flags.add('overpaid');
  const status = order.payments.every((payment) => payment.status === 'mined') ? 'confirmed' : 'paid';
  const changes = {
    cardPaidMinor,
    cardPaidTaxMinor: order.cardPaidTaxMinor + use.taxMinor,
    cardPaidTipMinor: order.cardPaidTipMinor + use.tipMinor,
    satoshis,
    updatedAt: now,
    ...(completes ? { status, flags: [...flags], paidAt: now, ...(status === 'confirmed' ? { confirmedAt: now } : {}) } : {}),
  };
  // The row is locked: the order is what was read, with these changes.
  return { order: { ...order, ...changes }, changes, completes };
}

/**
 * Writes the use orderPartPaid made of `locked` (the order as read under its lock) in the caller's transaction,
 * with `alongside` (the use's own writes: its events, a card's draw) in the same statement (writeTogether).
 * An order it completes has its tracked items leave the stock and its loyalty card stamped, as
 * recordOrderPayment does.
 */
export function writeOrderPartPaid(tx: SqlQueries, locked: OrderWithParts, paid: PartPaid, alongside: Statement[] = []): Promise<void> {
  return writeOrdersPartPaid(tx, [{ locked, paid }], alongside);
}

/** writeOrderPartPaid of uses on distinct orders, their writes and `alongside` (theirs: events, draws) in one statement. */
export async function writeOrdersPartPaid(
  tx: SqlQueries,
  uses: readonly { locked: OrderWithParts; paid: PartPaid }[],
  alongside: Statement[],
): Promise<void> {
  const updates = uses.map(({ locked, paid }) => orderUpdate(locked, paid.changes));
  const counts = await writeTogether(tx, [...updates.flat(), ...alongside]);
  let first = 0;
  uses.forEach(({ locked }, index) => {
    checkOrderUpdated(locked, counts.slice(first));
    first += updates[index]!.length;
  });
  for (const { paid } of uses) {
    if (!paid.completes) continue;
    await takeFromStock(tx, paid.order.organizationId, paid.order.lines);
    // As recordOrderPayment does: the loyalty card the order was created with is stamped once it is paid.
    await stampPaidOrder(tx, paid.order, paid.order.paidAt!);
  }
}
