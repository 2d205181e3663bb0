import { mineBlocks } from '@ctk/chain/local';
import { eventually } from '@ctk/shared/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fundedCustomer, orderRequest, paying, PUBLIC_URL, startOrderStack, type OrderStack } from './order-stack.js';

let stack: OrderStack;
beforeAll(async () => {
  // The watcher as the service runs it: started with pos, stopped on close.
  stack = await startOrderStack({ POS_WATCH_INTERVAL_MS: '100' });
  // Four services and a chain starting beside other test runs on a loaded machine can take over a minute.
}, 180_000);
afterAll(() => stack?.close());

describe('the order watcher started by the service', () => {
  it('learns of a payment to the address, then of it being mined, and the payment event is written once', async () => {
    const order = (await stack.client.createOrder(orderRequest(await stack.walletOrg()))).order!;
    const [output] = (await stack.client.getPaymentRequest({ orderNumber: order.orderNumber, publicUrl: PUBLIC_URL })).outputs;
    const tx = await paying(await fundedCustomer(stack.chain), [{ script: output!.script, satoshis: order.satoshis }]);
    const broadcast = await fetch(`${stack.chain.url}/v1/tx`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ rawTx: tx.toHex() }),
    });
    expect(broadcast.ok).toBe(true);
    const read = async () => (await stack.client.getOrder({ orderNumber: order.orderNumber, publicUrl: PUBLIC_URL })).order!;
    const paid = await eventually(async () => {
      const current = await read();
      expect(current.status).toBe('paid');
      return current;
    });
    expect(paid.payments).toEqual([expect.objectContaining({ txid: tx.id('hex'), via: 'address', satoshis: order.satoshis })]);
    await mineBlocks(stack.chain.url, 1);
    await eventually(async () => expect((await read()).status).toBe('confirmed'));
    await eventually(() => expect(stack.events.filter((event) => event.txid === tx.id('hex'))).toHaveLength(1));
  });

  it('watches a child handed out again for the order it was handed to: a payment there pays it, not the cancelled order before it', async () => {
    const org = await stack.walletOrg();
    const create = async () => (await stack.client.createOrder(orderRequest(org, { staff: true }))).order!;
    const read = async (orderNumber: string) => (await stack.client.getOrder({ orderNumber, publicUrl: PUBLIC_URL })).order!;
    // 20 counter orders fill the gap window; each is cancelled, which ends its hold (decision 0022).
    const cancelled = [];
    for (let i = 0; i < 20; i++) {
      const order = await create();
      await stack.client.cancelOrder({ org, orderNumber: order.orderNumber, publicUrl: PUBLIC_URL });
      cancelled.push(order);
    }
    // The next order gets the child released first, still within its cancelled order's late window.
    const order = await create();
    expect(order.address).toBe(cancelled[0]!.address);
    const [output] = (await stack.client.getPaymentRequest({ orderNumber: order.orderNumber, publicUrl: PUBLIC_URL })).outputs;
    const tx = await paying(await fundedCustomer(stack.chain), [{ script: output!.script, satoshis: order.satoshis }]);
    const broadcast = await fetch(`${stack.chain.url}/v1/tx`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ rawTx: tx.toHex() }),
    });
    expect(broadcast.ok).toBe(true);
    await eventually(async () => expect((await read(order.orderNumber)).status).toBe('paid'));
    expect((await read(cancelled[0]!.orderNumber)).payments).toEqual([]);
  }, 120_000);
});
