import { once } from 'node:events';
import { Readable } from 'node:stream';
import { AppError } from '@ctk/shared';
import { describe, expect, it } from 'vitest';
import { EventStreamSlots } from '../src/orders/event-stream-slots.js';
import { openOrderEvents } from '../src/orders/order-events.js';
import { Order, type WatchOrderResponse } from '@ctk/proto/ctk/pos/v1/pos';

/** A stream of one order that stays open until destroyed, as an unpaid order's does. */
async function openStream(): Promise<Readable> {
  async function* changes(): AsyncGenerator<WatchOrderResponse> {
    yield { order: Order.fromPartial({ orderNumber: '9VQWYC5C8T', status: 'open', currency: 'USD' }) };
    await new Promise(() => {});
  }
  return openOrderEvents(changes(), { keepaliveMs: 60_000 });
}

describe('open order event streams per address', () => {
  it('refuses one more stream than the limit with 429 rate_limited, and takes one again when a stream closes', async () => {
    const slots = new EventStreamSlots(2);
    const first = await slots.openIn('203.0.113.7', openStream);
    await slots.openIn('203.0.113.7', openStream);
    const refused = await slots.openIn('203.0.113.7', openStream).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(AppError);
    expect(refused).toMatchObject({ code: 'rate_limited', details: { retry_after_seconds: 60 } });
    // Another address has its own slots.
    await slots.openIn('198.51.100.4', openStream);

    first.destroy();
    await once(first, 'close');
    expect(slots.count('203.0.113.7')).toBe(1);
    await slots.openIn('203.0.113.7', openStream);
    expect(slots.count('203.0.113.7')).toBe(2);
  });

  it('gives the slot back when opening fails (no such order)', async () => {
    const slots = new EventStreamSlots(1);
    const notFound = new AppError('not_found', 'No order 0000000000');
    await expect(slots.openIn('203.0.113.7', () => Promise.reject(notFound))).rejects.toBe(notFound);
    expect(slots.count('203.0.113.7')).toBe(0);
    await slots.openIn('203.0.113.7', openStream);
  });
});
