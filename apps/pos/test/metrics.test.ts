import type { Order } from '@ctk/proto/ctk/pos/v1/pos';
import { scrapeMetrics } from '@ctk/shared/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mineBlocks } from '@ctk/chain/local';
import { watchOnce, watcherState } from '../src/orders/order-watcher.js';
import { failure, fundedCustomer, orderRequest, paying, PUBLIC_URL, startOrderStack, type OrderStack } from './order-stack.js';

let stack: OrderStack;
beforeAll(async () => {
  stack = await startOrderStack({ METRICS_PORT: '0' });
}, 60_000);
afterAll(() => stack?.close());

const payments = async (path: string, outcome: string) =>
  (await scrapeMetrics(stack.metricsPort!)).value('ctk_payments_total', { path, outcome }) ?? 0;
const outputsOf = async (order: Order) =>
  (await stack.client.getPaymentRequest({ orderNumber: order.orderNumber, publicUrl: PUBLIC_URL })).outputs;

describe("pos's metrics", () => {
  it('count a BIP270 payment once as accepted, its retry as a duplicate, a second payment of the paid order as refused', async () => {
    const before = { accepted: await payments('bip270', 'accepted'), duplicate: await payments('bip270', 'duplicate') };
    const refusedBefore = await payments('bip270', 'refused');
    const order = (await stack.client.createOrder(orderRequest(await stack.walletOrg()))).order!;
    const [output, receipt] = await outputsOf(order);
    const pay = async () =>
      (
        await paying(await fundedCustomer(stack.chain), [
          { script: output!.script, satoshis: order.dueSatoshis },
          { script: receipt!.script, satoshis: 0 },
        ])
      ).toHex();
    const transaction = await pay();
    await stack.client.payOrder({ orderNumber: order.orderNumber, transaction });
    await stack.client.payOrder({ orderNumber: order.orderNumber, transaction });
    expect((await failure(stack.client.payOrder({ orderNumber: order.orderNumber, transaction: await pay() }))).code).toBe(
      'failed_precondition',
    );

    expect(await payments('bip270', 'accepted')).toBe(before.accepted + 1);
    expect(await payments('bip270', 'duplicate')).toBe(before.duplicate + 1);
    expect(await payments('bip270', 'refused')).toBe(refusedBefore + 1);
  });

  it("count a payment the order watcher finds at an order's address as accepted on the chain_watcher path", async () => {
    const before = await payments('chain_watcher', 'accepted');
    const order = (await stack.client.createOrder(orderRequest(await stack.walletOrg()))).order!;
    const [output] = await outputsOf(order);
    const tx = await paying(await fundedCustomer(stack.chain), [{ script: output!.script, satoshis: order.dueSatoshis }]);
    const response = await fetch(`${stack.chain.url}/v1/tx`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ rawTx: tx.toHex() }),
    });
    expect(response.ok).toBe(true);
    await watchOnce(stack.orders);
    expect(await payments('chain_watcher', 'accepted')).toBe(before + 1);
    const scrape = await scrapeMetrics(stack.metricsPort!);
    // pos called p2p and books for the order: the callers' side of those calls.
    expect(
      scrape.value('ctk_grpc_client_calls_total', { service: 'ctk.p2p.v1.P2pService', method: 'SettlePayment', code: 'OK' }),
    ).toBeGreaterThanOrEqual(2);
  });

  it("ask a paid order's payment of the chain once when it is newly paid, then once a block", async () => {
    const statusCalls = async () =>
      (await scrapeMetrics(stack.metricsPort!)).value('ctk_grpc_client_calls_total', {
        service: 'ctk.p2p.v1.P2pService',
        method: 'GetTransactionStatus',
        code: 'OK',
      }) ?? 0;
    const state = watcherState();
    // A watcher's first round asks every paid order (it has seen no block yet).
    await watchOnce(stack.orders, state);
    const order = (await stack.client.createOrder(orderRequest(await stack.walletOrg()))).order!;
    const [output, receipt] = await outputsOf(order);
    const transaction = (
      await paying(await fundedCustomer(stack.chain), [
        { script: output!.script, satoshis: order.dueSatoshis },
        { script: receipt!.script, satoshis: 0 },
      ])
    ).toHex();
    await stack.client.payOrder({ orderNumber: order.orderNumber, transaction });
    let before = await statusCalls();
    await watchOnce(stack.orders, state);
    expect(await statusCalls()).toBe(before + 1);
    // No block since: not asked again, nor is any other paid order.
    before = await statusCalls();
    await watchOnce(stack.orders, state);
    expect(await statusCalls()).toBe(before);
    // A block: every paid order is asked, and this one is confirmed.
    await mineBlocks(stack.chain.url, 1);
    await watchOnce(stack.orders, state);
    expect(await statusCalls()).toBeGreaterThan(before);
    expect((await stack.client.getOrder({ orderNumber: order.orderNumber })).order!.status).toBe('confirmed');
    before = await statusCalls();
    await watchOnce(stack.orders, state);
    expect(await statusCalls()).toBe(before);
  });
});
