import { Readable } from 'node:stream';
import type { WatchOrderResponse } from '@ctk/proto/ctk/pos/v1/pos';
import { orderView } from './order-view.js';

/**
 * The order's changes as Server-Sent Events. The first message is awaited before the answer begins, so
 * that pos's refusals (no such order) are ordinary error answers; then each message is an `order` event.
 * Destroying the stream (the client went away) cancels the call to pos.
 */
export async function openOrderEvents(messages: AsyncIterable<WatchOrderResponse>): Promise<Readable> {
  const iterator = messages[Symbol.asyncIterator]();
  const first = await iterator.next();
  const event = (message: WatchOrderResponse) => `event: order\ndata: ${JSON.stringify(orderView(message.order))}\n\n`;
  let head: string | undefined = first.done ? undefined : event(first.value);
  const events: AsyncIterator<string> = {
    async next() {
      if (head !== undefined) {
        const value = head;
        head = undefined;
        return { done: false, value };
      }
      const next = await iterator.next();
      return next.done ? next : { done: false, value: event(next.value) };
    },
    async return() {
      await iterator.return?.();
      return { done: true, value: undefined };
    },
  };
  return Readable.from({ [Symbol.asyncIterator]: () => events }, { objectMode: false });
}
