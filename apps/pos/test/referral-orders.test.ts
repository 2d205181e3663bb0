import { P2PKH, PrivateKey } from '@bsv/sdk';
import type { OrgRef } from '@ctk/proto/ctk/common/v1/common';
import { eventually } from '@ctk/shared/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failure, fundedCustomer, paying, PUBLIC_URL, startOrderStack, type OrderStack } from './order-stack.js';

let stack: OrderStack;
beforeAll(async () => {
  // The watcher settles payments seen at an order's address; BIP270 payments come in by PayOrder.
  stack = await startOrderStack({ POS_WATCH_INTERVAL_MS: '100' });
}, 180_000);
afterAll(() => stack?.close());

const referrer = PrivateKey.fromRandom().toAddress('testnet');
const referrerScript = new P2PKH().lock(referrer).toHex();

/** An order for a $4.00 cold brew sold through a 10% referral link (400 satoshis a cent here: 40,000 satoshis). */
async function referralOrder(org: OrgRef) {
  const { item } = await stack.client.createItem({ org, name: 'Cold brew', priceCents: 400n, currency: 'USD', available: true });
  const { order } = await stack.client.openReferralOrder({
    org,
    itemId: item!.id,
    referralLinkId: 'ref_AAAAAAAAAAAAAAAAAAAAAAAA',
    commissionBasisPoints: 1_000,
    commissionAddress: referrer,
    publicUrl: PUBLIC_URL,
    clientAddress: '203.0.113.9',
  });
  return order!;
}

const read = async (orderNumber: string) => (await stack.client.getOrder({ orderNumber, publicUrl: PUBLIC_URL })).order!;

/** Broadcasts a transaction as a wallet paying an address would, without telling pos. */
async function broadcast(tx: { toHex(): string }) {
  const answer = await fetch(`${stack.chain.url}/v1/tx`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ rawTx: tx.toHex() }),
  });
  expect(answer.ok).toBe(true);
}

describe('an order sold through a referral link', () => {
  it('fixes the commission before tax, asks the shop’s output less it and the referrer’s output beside it, and pays it with its event', async () => {
    const org = await stack.walletOrg({ jurisdiction: 'US-CA' });
    const order = await referralOrder(org);
    // 7.25% tax on $4.00 is 29 cents; the commission is 10% of the $4.00 sold, not of the tax.
    expect(order).toMatchObject({ totalMinor: 429n, taxMinor: 29n, commissionMinor: 40n, satoshis: 42_900n, commissionSatoshis: 4_000n });
    expect(order.commissionAddress).toBe(referrer);
    const request = await stack.client.getPaymentRequest({ orderNumber: order.orderNumber, publicUrl: PUBLIC_URL });
    expect(request.outputs.map((output) => [output.amount, output.description])).toEqual([
      [38_900n, `Order ${order.orderNumber} at ${org.handle}`],
      [4_000n, 'Referral commission'],
      [0n, 'Receipt'],
    ]);
    expect(request.outputs[1]!.script).toBe(referrerScript);
    // A BIP270 payment without the referrer's output is refused before it reaches the chain.
    const customer = await fundedCustomer(stack.chain);
    const shopAlone = await paying(
      customer,
      [request.outputs[0]!, request.outputs[2]!].map((o) => ({ script: o.script, satoshis: o.amount })),
    );
    expect(await failure(stack.client.payOrder({ orderNumber: order.orderNumber, transaction: shopAlone.toHex() }))).toMatchObject({
      code: 'payment_wrong_output',
    });
    const both = await paying(
      await fundedCustomer(stack.chain),
      request.outputs.map((o) => ({ script: o.script, satoshis: o.amount })),
    );
    expect((await stack.client.payOrder({ orderNumber: order.orderNumber, transaction: both.toHex() })).error).toBe(0);
    expect(await read(order.orderNumber)).toMatchObject({ status: 'paid', paidSatoshis: 42_900n });
    const event = await eventually(() => {
      const found = stack.events.find((e) => e.txid === both.id('hex'));
      expect(found).toBeDefined();
      return found!;
    });
    expect(event).toMatchObject({ amountMinor: 429n, taxMinor: 29n, commissionMinor: 40n });
  });

  it('counts what a transaction seen at its address pays the referrer; paid to the shop alone, it owes no commission', async () => {
    const org = await stack.walletOrg();
    const split = await referralOrder(org);
    const [shop, commission] = (await stack.client.getPaymentRequest({ orderNumber: split.orderNumber, publicUrl: PUBLIC_URL })).outputs;
    const bothTx = await paying(await fundedCustomer(stack.chain), [
      { script: shop!.script, satoshis: shop!.amount },
      { script: commission!.script, satoshis: commission!.amount },
    ]);
    await broadcast(bothTx);
    await eventually(async () => expect(await read(split.orderNumber)).toMatchObject({ status: 'paid', paidSatoshis: 40_000n }));

    // The shop's share alone is a part payment; the rest to the shop completes it, and the referrer was not paid.
    const whole = await referralOrder(org);
    const [output] = (await stack.client.getPaymentRequest({ orderNumber: whole.orderNumber, publicUrl: PUBLIC_URL })).outputs;
    const part = await paying(await fundedCustomer(stack.chain), [{ script: output!.script, satoshis: 36_000n }]);
    await broadcast(part);
    await eventually(async () => expect((await read(whole.orderNumber)).paidSatoshis).toBe(36_000n));
    expect((await read(whole.orderNumber)).status).toBe('open');
    const rest = await paying(await fundedCustomer(stack.chain), [{ script: output!.script, satoshis: 4_000n }]);
    await broadcast(rest);
    await eventually(async () => expect(await read(whole.orderNumber)).toMatchObject({ status: 'paid', paidSatoshis: 40_000n }));

    const events = await eventually(() => {
      const found = [bothTx, rest].map((tx) => stack.events.find((e) => e.txid === tx.id('hex')));
      expect(found.every(Boolean)).toBe(true);
      return found;
    });
    expect(events.map((e) => e!.commissionMinor)).toEqual([40n, 0n]);
  });

  it('refuses a share of nothing or above half, and an address of another network', async () => {
    const org = await stack.walletOrg();
    const { item } = await stack.client.createItem({ org, name: 'Cold brew', priceCents: 400n, currency: 'USD', available: true });
    const open = (fields: Record<string, unknown>) =>
      failure(
        stack.client.openReferralOrder({
          org,
          itemId: item!.id,
          commissionBasisPoints: 1_000,
          commissionAddress: referrer,
          publicUrl: PUBLIC_URL,
          ...fields,
        }),
      );
    expect(await open({ commissionBasisPoints: 0 })).toMatchObject({ details: { field: 'commission_basis_points' } });
    expect(await open({ commissionBasisPoints: 5_001 })).toMatchObject({ details: { field: 'commission_basis_points' } });
    expect(await open({ commissionAddress: PrivateKey.fromRandom().toAddress('mainnet') })).toMatchObject({
      details: { field: 'referrer_address' },
    });
  });
});
