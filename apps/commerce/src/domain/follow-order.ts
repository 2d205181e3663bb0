import { followOrderChange } from '../checkouts/follow-order-changes.js';
import type { CheckoutContext } from '../checkouts/checkout-context.js';

/**
 * The order's state as pos has it now, recorded on the checkout that opened it as its change would be
 * (follow-order-changes.ts: a newer version alone, a ticket checkout's seats first); nothing for an order no
 * checkout opened. The gateway asks before it sends a final state on the order's event stream, so that the
 * status read that follows, answered from commerce's record, says so too (decision 0055).
 */
export async function followOrder(context: CheckoutContext, input: { orderNumber: string }): Promise<void> {
  const { state } = await context.pos.getOrderState({ orderNumber: input.orderNumber });
  if (state) await followOrderChange(context, state);
}
