import { Order, type WatchOrderResponse } from '@ctk/proto/ctk/pos/v1/pos';
import { describe, expect, it } from 'vitest';
import { openOrderEvents } from '../src/orders/order-events.js';

const sleep = (ms: number) => new Promise((later) => setTimeout(later, ms));
const message = (status: string): WatchOrderResponse => ({
  order: Order.fromPartial({ orderNumber: '9VQWYC5C8T', status, currency: 'USD', createdAt: '2026-11-23T10:00:00.000Z' }),
});

describe('the order event stream', () => {
  it('sends a keepalive comment while nothing changes, and the next change after it', async () => {
    async function* changes() {
      yield message('open');
      await sleep(250);
      yield message('paid');
    }
    const chunks: string[] = [];
    for await (const chunk of await openOrderEvents(changes(), { keepaliveMs: 60 })) chunks.push(String(chunk));
    expect(chunks[0]).toMatch(/^event: order\ndata: \{"order_number":"9VQWYC5C8T","status":"open"/);
    const keepalives = chunks.slice(1, -1);
    expect(keepalives.length).toBeGreaterThanOrEqual(2);
    for (const keepalive of keepalives) expect(keepalive).toBe(': keepalive\n\n');
    expect(chunks.at(-1)).toMatch(/^event: order\ndata: \{"order_number":"9VQWYC5C8T","status":"paid"/);
  });

  it('sends no keepalive when changes come sooner', async () => {
    async function* changes() {
      yield message('open');
      yield message('paid');
    }
    const chunks: string[] = [];
    for await (const chunk of await openOrderEvents(changes(), { keepaliveMs: 10_000 })) chunks.push(String(chunk));
    expect(chunks).toHaveLength(2);
  });
});
