// The order, live: Server-Sent Events from GET /api/pos/orders/:n/events (event `order`, the order JSON),
// and, when the stream cannot be had or breaks, polling GET /api/pos/orders/:n. Both are public reads.

import { api, orderOf } from './api.js';

export const FINAL = new Set(['paid', 'confirmed', 'expired', 'cancelled', 'paid_elsewhere']);
const POLL_MS = 2000;

/**
 * Calls `onOrder(order)` with each new state until its status is one of `until` (paid counts as done:
 * being mined later changes nothing at the counter) or `stop()` is called. `onError(error)` hears a
 * failed poll; the watch goes on.
 */
export function watchOrder(orderNumber, { onOrder, onError = () => {}, until = FINAL }) {
  const path = `/api/pos/orders/${encodeURIComponent(orderNumber)}`;
  let stopped = false;
  let source = null;
  let timer = null;
  let last = '';

  const deliver = (order) => {
    if (stopped || !order) return;
    const seen = JSON.stringify(order);
    if (seen === last) return;
    last = seen;
    onOrder(order);
    if (until.has(order.status)) stop();
  };

  const poll = async () => {
    if (stopped) return;
    try {
      deliver(orderOf(await api('GET', path, { auth: false })));
    } catch (error) {
      onError(error);
    }
    if (!stopped) timer = setTimeout(poll, POLL_MS);
  };

  const stop = () => {
    stopped = true;
    source?.close();
    clearTimeout(timer);
  };

  if (typeof EventSource === 'function') {
    source = new EventSource(`${path}/events`);
    source.addEventListener('order', (event) => {
      try {
        deliver(orderOf(JSON.parse(event.data)));
      } catch (error) {
        onError(error);
      }
    });
    // A stream refused, cut or ended: EventSource would reconnect blindly; poll instead.
    source.addEventListener('error', () => {
      source.close();
      source = null;
      if (!stopped && timer === null) poll();
    });
  } else {
    poll();
  }
  return { stop };
}
