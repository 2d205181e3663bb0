import type { ApplyOrderCreditsRequest } from '@ctk/proto/ctk/pos/v1/pos';
import { AppError, enqueuePaymentEvent, orgOf, prismaQueries } from '@ctk/shared';
import { creditUseOf, insertCreditUse } from '../data/credit-use-repository.js';
import { lockOrder, type OrderWithParts } from '../data/order-repository.js';
import { getOrgOrder } from '../domain/get-order.js';
import type { OrderContext } from '../orders/order-context.js';
import { orderPaidEvent, wholeOf } from '../orders/order-event.js';
import { releaseOrderHold } from '../orders/order-hold.js';
import { checkStoredValueMayPay, dueMinor, orderPartPaid, storedValuePaid, writeOrderPartPaid } from '../prepaid/stored-value-payment.js';
import { plus, restOf, useShares } from '../prepaid/use-shares.js';
import { creditsRedeemedEvent } from './credits-events.js';

/** Concurrent uses of one order queue on its row lock: let them wait longer than Prisma's 2 s to start. */
const WAIT = { maxWait: 20_000, timeout: 20_000 };

/**
 * Contracts redeemed a customer's credits on the chain against an order (decision 0036): their value pays
 * part or all of it, as a prepaid card's use does (usePrepaidCard). Under the order's row lock: the use, the
 * order's card_paid_minor and its satoshis for the rest, and credits.redeemed with the use's share of the tax
 * and tip, in one transaction; a use that covers what is due makes the order paid. Once per redemption: the
 * same one again answers the order as it is. Credits worth more than the order still needs are refused (the
 * units stay at the shop's redemption address: staff send them back with the wallet).
 */
export async function applyOrderCredits(context: OrderContext, request: ApplyOrderCreditsRequest): Promise<OrderWithParts> {
  const org = orgOf(request.org);
  const found = await getOrgOrder(context, org, request.orderNumber);
  if (request.valueMinor <= 0n) throw new AppError('validation_failed', 'The credits are worth nothing', { field: 'amount' });
  const result = await context.prisma.$transaction(async (tx) => {
    const order = (await lockOrder(prismaQueries(tx), found.id))!;
    const applied = await creditUseOf(tx, request.redemptionId);
    if (applied) {
      if (applied.orderId !== order.id) throw new AppError('failed_precondition', `Redemption ${request.redemptionId} paid another order`);
      return { order, applied: false };
    }
    const now = context.now();
    checkStoredValueMayPay(order, request.currency, 'credits', now);
    const due = dueMinor(order);
    if (request.valueMinor > due)
      throw new AppError(
        'failed_precondition',
        `The credits are worth ${request.valueMinor}, more than the ${due} order ${order.orderNumber} still needs: send the units back from the redemption address and redeem fewer`,
        { reason: 'worth_more_than_due', due_minor: Number(due) },
      );
    const earlier = storedValuePaid(order);
    const shares = useShares(wholeOf(order), earlier, request.valueMinor);
    const paid = orderPartPaid(order, shares, now);
    await writeOrderPartPaid(prismaQueries(tx), order, paid);
    const rest = restOf(wholeOf(order), plus(earlier, shares));
    const use = await insertCreditUse(tx, {
      organizationId: order.organizationId,
      orderId: order.id,
      redemptionId: request.redemptionId,
      tokenId: request.tokenId,
      symbol: request.symbol,
      units: request.units,
      amountMinor: shares.amountMinor,
      taxMinor: shares.taxMinor,
      tipMinor: shares.tipMinor,
      occurredAt: now,
    });
    // The entry that completes the order carries its lines: this use's, unless money paid a rest.
    await enqueuePaymentEvent(tx, creditsRedeemedEvent(paid.order, use, paid.completes && rest.amountMinor === 0n));
    if (paid.completes && rest.amountMinor > 0n)
      await enqueuePaymentEvent(tx, orderPaidEvent(paid.order, paid.order.payments.at(-1)?.txid ?? '', now, rest));
    return { order: paid.order, applied: true };
  }, WAIT);
  if (!result.applied) return result.order;
  context.notifier.changed(found.id);
  context.eventsCommitted();
  // Paid by these credits: a payment to its output could only be refunded now, so its hold ends (decision 0022).
  if (result.order.status === 'paid' || result.order.status === 'confirmed') await releaseOrderHold(context, result.order);
  return result.order;
}
