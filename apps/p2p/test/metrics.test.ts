import type { OrgRef } from '@ctk/proto/ctk/common/v1/common';
import { scrapeMetrics } from '@ctk/shared/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failure, fundedCustomer, merchantWallet, payOutputs, startStack, type TestStack } from './support.js';

let stack: TestStack;
beforeAll(async () => {
  stack = await startStack({ METRICS_PORT: '0' });
});
afterAll(() => stack?.close());

const target = (org: OrgRef) => ({ org, paymail: 'cafe@shop.example' });
const paymail = async (outcome: string) =>
  (await scrapeMetrics(stack.metricsPort!)).value('ctk_payments_total', { path: 'paymail', outcome }) ?? 0;

describe("p2p's metrics", () => {
  it('count each paymail payment once where p2p decides it: accepted, a retry of it as a duplicate, an underpayment refused', async () => {
    const before = { accepted: await paymail('accepted'), duplicate: await paymail('duplicate'), refused: await paymail('refused') };
    const org = await stack.orgRef(merchantWallet());
    const destination = await stack.client.createP2pDestination({ target: target(org), satoshis: 5_000n });
    const tx = await payOutputs(await fundedCustomer(stack.chain), destination.outputs);
    const paid = { target: target(org), reference: destination.reference, hex: tx.toHex() };
    await stack.client.receiveP2pTransaction(paid);
    await stack.client.receiveP2pTransaction(paid);

    const other = await stack.client.createP2pDestination({ target: target(org), satoshis: 5_000n });
    const [output, receipt] = other.outputs as [{ script: string; satoshis: bigint }, { script: string; satoshis: bigint }];
    const under = await payOutputs(await fundedCustomer(stack.chain), [{ ...output, satoshis: 4_999n }, receipt]);
    expect(
      await failure(stack.client.receiveP2pTransaction({ target: target(org), reference: other.reference, hex: under.toHex() })),
    ).toMatchObject({ code: 'payment_underpaid' });

    expect(await paymail('accepted')).toBe(before.accepted + 1);
    expect(await paymail('duplicate')).toBe(before.duplicate + 1);
    expect(await paymail('refused')).toBe(before.refused + 1);
    const scrape = await scrapeMetrics(stack.metricsPort!);
    expect(scrape.types.get('ctk_payments_total')).toBe('counter');
    // p2p emits: its outbox is shown (the in-process transport takes its events at once).
    expect(scrape.value('ctk_outbox_backlog')).toBeGreaterThanOrEqual(0);
    expect(
      scrape.value('ctk_grpc_server_calls_total', { method: 'ctk.p2p.v1.P2pService/ReceiveP2pTransaction', code: 'OK' }),
    ).toBeGreaterThanOrEqual(2);
  });
});
