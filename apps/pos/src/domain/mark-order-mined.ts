import { prismaQueries } from '@ctk/shared';
import { setOrderPaymentState, updateOrder, type UnconfirmedOrder } from '../data/order-repository.js';
import type { OrderContext } from '../orders/order-context.js';

/**
 * A paid order's payments (as read a moment ago), asked of p2p's GetTransactionStatus: each one's state is recorded, and once
 * every payment is mined the order is confirmed.
 */
export async function markOrderMined(context: OrderContext, order: UnconfirmedOrder): Promise<void> {
  if (order.status !== 'paid') return;
  const orderId = order.id;
  const states = new Map<string, { status: string; blockHeight: number | null }>();
  for (const payment of order.payments) {
    if (payment.status === 'mined') continue;
    const state = await context.p2p.getTransactionStatus({ txid: payment.txid });
    if (state.status !== payment.status) states.set(payment.txid, { status: state.status, blockHeight: state.blockHeight ?? null });
  }
  if (states.size === 0) return;
  const confirmed = await context.orders.locked(orderId, async (tx, locked) => {
    for (const [txid, state] of states) await setOrderPaymentState(tx, orderId, txid, state);
    const allMined = locked.payments.every((payment) => (states.get(payment.txid)?.status ?? payment.status) === 'mined');
    const now = context.now();
    const confirms = allMined && locked.status === 'paid';
    await updateOrder(prismaQueries(tx), locked, confirms ? { status: 'confirmed', confirmedAt: now, updatedAt: now } : { updatedAt: now });
    return confirms;
  });
  context.notifier.changed(orderId);
  // Confirmed, the order's change is in the outbox (ctk.orders.changed).
  if (confirmed) context.eventsCommitted();
}
