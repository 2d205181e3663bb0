import { prismaQueries } from '@ctk/shared';
import { updateOrder } from '../data/order-repository.js';
import { expiredCardOrders } from '../data/prepaid-card-repository.js';
import type { OrderContext } from '../orders/order-context.js';
import { releaseOrderCards } from './release-order-cards.js';

/**
 * Expires the open orders past their expiry that prepaid cards paid part of or that sell a card (of
 * `cardIds` only, when given), each in its own transaction with its row locked: its uses are restored and
 * a card it sells becomes void in the transaction that writes `expired` (decision 0017). An order another
 * process expired first is left as it is, so a use is restored once. The watcher calls this every round;
 * reads of cards call it for theirs, so a balance is right even before the watcher comes by. Answers the
 * ids of the orders it expired.
 */
export async function expireCardOrders(context: OrderContext, cardIds?: readonly string[]): Promise<string[]> {
  const now = context.now();
  return expireOrders(context, await expiredCardOrders(context.sql, now, cardIds), now);
}

/** Expires each of the orders expiredCardOrders found at `now`, as expireCardOrders does; answers those it expired. */
export async function expireOrders(context: OrderContext, ids: readonly string[], now: Date): Promise<string[]> {
  const expired: string[] = [];
  for (const id of ids) {
    try {
      if (await expireCardOrder(context, id, now)) expired.push(id);
    } catch (error) {
      // One order's failure holds up no other; it is tried again next time.
      context.logger.warn({ err: error, orderId: id }, 'an order with prepaid cards could not be expired');
    }
  }
  return expired;
}

async function expireCardOrder(context: OrderContext, id: string, now: Date): Promise<boolean> {
  const changed = await context.orders.locked(id, async (tx, order) => {
    if (order.status !== 'open' || order.expiresAt > now) return false;
    const released = await releaseOrderCards(prismaQueries(tx), order, now);
    const flags = order.paidSatoshis > 0n ? [...new Set([...order.flags, 'paid_partial'])] : order.flags;
    await updateOrder(prismaQueries(tx), order, { status: 'expired', flags, updatedAt: now, ...released.changes });
    return true;
  });
  if (!changed) return false;
  // Expired: its change (ctk.orders.changed) and its cards' restores are in the outbox.
  context.eventsCommitted();
  context.notifier.changed(id);
  return true;
}
