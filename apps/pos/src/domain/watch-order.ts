import type { OrderWithParts } from '../data/order-repository.js';
import type { OrderContext } from '../orders/order-context.js';
import { isFinal } from '../orders/order-state.js';
import { getOrder } from './get-order.js';

/** How often a watched order is read again, for changes another replica made (this one's are notified at once). */
const REREAD_MS = 2_000;

/**
 * The order now, then again each time it changes (a payment, a cancel, its expiry, confirmation), until it
 * is final or `signal` aborts. `render` turns the order into what is sent; an unchanged rendering is not sent again.
 */
export async function* watchOrder<T>(
  context: OrderContext,
  orderNumber: string,
  render: (order: OrderWithParts, now: Date) => T,
  signal: AbortSignal,
  rereadMs = REREAD_MS,
): AsyncGenerator<T> {
  let order = await getOrder(context, orderNumber);
  let wake: (() => void) | undefined;
  const stopListening = context.notifier.listen(order.id, () => wake?.());
  try {
    let last = '';
    for (;;) {
      const now = context.now();
      const rendered = render(order, now);
      const key = JSON.stringify(rendered, (_, value: unknown) => (typeof value === 'bigint' ? value.toString() : value));
      if (key !== last) {
        last = key;
        yield rendered;
      }
      if (isFinal(order, now, context.latePaymentSeconds) || signal.aborted) return;
      await new Promise<void>((resolve) => {
        const done = () => {
          wake = undefined;
          clearTimeout(timer);
          signal.removeEventListener('abort', done);
          resolve();
        };
        const timer = setTimeout(done, rereadMs);
        wake = done;
        signal.addEventListener('abort', done, { once: true });
      });
      if (signal.aborted) return;
      order = (await context.orders.byId(order.id)) ?? order;
    }
  } finally {
    stopListening();
  }
}
