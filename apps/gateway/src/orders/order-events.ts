import { Readable } from 'node:stream';
import type { Order, WatchOrderResponse } from '@ctk/proto/ctk/pos/v1/pos';
import { orderView } from './order-answers.js';

/** A comment line this often while nothing changes, so that proxies and phones keep an idle stream open. */
export const KEEPALIVE_MS = 15_000;

/**
 * The order's changes as Server-Sent Events. The first message is awaited before the answer begins, so
 * that pos's refusals (no such order) are ordinary error answers; then each message is an `order` event,
 * with a `: keepalive` comment after each KEEPALIVE_MS without one. Destroying the stream (the client went
 * away) cancels the call to pos. `view` is what each event carries of the order (the route's answer).
 */
export async function openOrderEvents(
  messages: AsyncIterable<WatchOrderResponse>,
  {
    view = async (order) => orderView(order),
    keepaliveMs = KEEPALIVE_MS,
  }: { view?: (order: Order | undefined) => Promise<unknown>; keepaliveMs?: number } = {},
): Promise<Readable> {
  const iterator = messages[Symbol.asyncIterator]();
  const first = await iterator.next();
  const event = async (message: WatchOrderResponse) => `event: order\ndata: ${JSON.stringify(await view(message.order))}\n\n`;
  let head: string | undefined = first.done ? undefined : await event(first.value);
  // The message being waited for survives a keepalive: the next call goes on waiting for it.
  let pending: Promise<IteratorResult<WatchOrderResponse>> | undefined;
  const events: AsyncIterator<string> = {
    async next() {
      if (head !== undefined) {
        const value = head;
        head = undefined;
        return { done: false, value };
      }
      pending ??= iterator.next();
      let timer: NodeJS.Timeout | undefined;
      const idle = new Promise<'idle'>((resolve) => (timer = setTimeout(() => resolve('idle'), keepaliveMs)));
      const next = await Promise.race([pending, idle]).finally(() => clearTimeout(timer));
      if (next === 'idle') return { done: false, value: ': keepalive\n\n' };
      pending = undefined;
      return next.done ? next : { done: false, value: await event(next.value) };
    },
    async return() {
      await iterator.return?.();
      return { done: true, value: undefined };
    },
  };
  return Readable.from({ [Symbol.asyncIterator]: () => events }, { objectMode: false });
}
