import { Order } from '@ctk/proto/ctk/pos/v1/pos';
import { AppError } from '@ctk/shared';
import type { Escrow } from '../data/escrow-repository.js';
import type { ContractsContext } from '../domain/contracts-context.js';
import type { EscrowState } from './escrow-state.js';

/** pos's answers that will not change by asking again. */
const POS_REFUSALS = new Set(['failed_precondition', 'not_found', 'validation_failed']);

/**
 * The shop's pos order an escrow is to pay (decision 0038), read among the shop's own orders (another shop's
 * number is not one): open, nothing of it paid in any way, none of the orders whose payment is bound to
 * something else (a prepaid card or credits it sells, a referrer's commission), and no other escrow's (unless
 * pos refused that one).
 */
export async function orderToEscrow(
  context: Pick<ContractsContext, 'pos' | 'escrows'>,
  org: { id: string; handle: string },
  orderNumber: string,
): Promise<Order> {
  const { orders } = await context.pos.listOrders({ org, search: orderNumber, limit: 1 }, { timeoutMs: 20_000 });
  const order = orders.find((each) => each.orderNumber === orderNumber.toUpperCase());
  if (!order) throw new AppError('validation_failed', `${org.handle} has no order ${orderNumber}`, { field: 'order_number' });
  const refuse = (reason: string, why: string) =>
    new AppError('failed_precondition', `Order ${order.orderNumber} ${why}: an escrow pays an open order nothing has paid yet`, {
      reason,
    });
  if (order.status !== 'open') throw refuse(order.status, `is ${order.status}`);
  if (order.paidSatoshis > 0n || order.cardPaidMinor > 0n) throw refuse('partly_paid', 'has a payment already');
  if (order.prepaidCardId || order.creditsTokenId) throw refuse('stored_value', 'sells a prepaid card or credits');
  if (order.referralLinkId || order.commissionMinor > 0n) throw refuse('referral', 'pays a referrer');
  // One escrow an order: a second would be refused by pos once the first is funded.
  const agreed = await context.escrows.ofOrder(org.id, order.orderNumber);
  if (agreed)
    throw new AppError('failed_precondition', `Order ${order.orderNumber} is the order of escrow ${agreed.id} already`, {
      reason: 'in_escrow',
      escrow_id: agreed.id,
    });
  return order;
}

/**
 * Once an order's escrow is funded, pos takes it as the order's payment (paid_elsewhere_by "escrow"): the order
 * stops expiring and takes no other payment. Asked at each read of a funded escrow until pos answers, and
 * recorded once: pos's refusal (the order was paid another way or cancelled first) is kept as it said it, and
 * the escrow is then only refunded. pos unreachable changes nothing: the next read asks again.
 */
export async function takeOrderPayment(context: ContractsContext, escrow: Escrow, state: EscrowState): Promise<Escrow> {
  if (!escrow.orderNumber || escrow.orderPaidAt || escrow.orderRefusal || state.funding?.status !== 'broadcast') return escrow;
  const org = { id: escrow.organizationId, handle: escrow.orgHandle };
  try {
    // It waits on the order's row in pos, as every payment of the order does: longer than a read's deadline.
    await context.pos.markOrderPaidElsewhere(
      { org, orderNumber: escrow.orderNumber, provider: 'escrow', paymentRef: escrow.id, publicUrl: '' },
      { timeoutMs: 20_000 },
    );
    return await context.escrows.recordOrderPayment(escrow.id, { orderPaidAt: context.now() });
  } catch (error) {
    if (AppError.is(error) && POS_REFUSALS.has(error.code))
      return context.escrows.recordOrderPayment(escrow.id, { orderRefusal: error.message });
    context.logger.warn({ err: error, escrow: escrow.id }, 'pos could not be asked to take the funded escrow as its order’s payment');
    return escrow;
  }
}

/** The order an escrow pays, as pos answered it when the escrow was agreed; none for an escrow of satoshis. */
export function escrowOrder(escrow: Pick<Escrow, 'order'>): Order | undefined {
  return escrow.order ? Order.fromJSON(escrow.order) : undefined;
}

/** Whether pos took the funded escrow as its order's payment: pending (not asked or not reached), paid, refused. */
export function orderPayment(escrow: Escrow): 'pending' | 'paid' | 'refused' | undefined {
  if (!escrow.orderNumber) return undefined;
  return escrow.orderPaidAt ? 'paid' : escrow.orderRefusal ? 'refused' : 'pending';
}
