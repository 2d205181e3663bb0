import { PrivateKey } from '@bsv/sdk';
import type { OrgRef } from '@ctk/proto/ctk/common/v1/common';
import type { CreatePayLinkRequest, Order, PayLink } from '@ctk/proto/ctk/pos/v1/pos';
import { eventually } from '@ctk/shared/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { watchOnce } from '../src/orders/order-watcher.js';
import { failure, fundedCustomer, paying, PUBLIC_URL, startOrderStack, type OrderStack } from './order-stack.js';

let stack: OrderStack;
beforeAll(async () => {
  stack = await startOrderStack();
}, 60_000);
afterAll(() => stack?.close());

/** pos's clock: the stack moves it ahead of the real one. */
let aheadSeconds = 0;
const posNow = () => new Date(Date.now() + aheadSeconds * 1000);
const advance = (seconds: number) => {
  aheadSeconds += seconds;
  stack.advance(seconds);
};

const createLink = async (org: OrgRef, fields: Partial<CreatePayLinkRequest> = {}) =>
  (
    await stack.client.createPayLink({
      org,
      currency: 'USD',
      amountMinor: 1250n,
      memo: 'Invoice 1042: catering',
      publicUrl: PUBLIC_URL,
      createdBy: 'user-1',
      ...fields,
    })
  ).payLink!;
const getLink = async (link: PayLink) => (await stack.client.getPayLink({ id: link.terms!.id, publicUrl: PUBLIC_URL })).payLink!;
const open = (org: OrgRef, link: PayLink, amountMinor = 0n, clientAddress = '') =>
  stack.client.openPayLinkOrder({ org, id: link.terms!.id, amountMinor, publicUrl: PUBLIC_URL, clientAddress });

/** Pays the order in full by BIP270 (its output, then the receipt output). */
async function payInFull(order: Order) {
  const { outputs } = await stack.client.getPaymentRequest({ orderNumber: order.orderNumber, publicUrl: PUBLIC_URL });
  const tx = await paying(await fundedCustomer(stack.chain), [
    { script: outputs[0]!.script, satoshis: order.dueSatoshis },
    { script: outputs[1]!.script, satoshis: 0 },
  ]);
  expect((await stack.client.payOrder({ orderNumber: order.orderNumber, transaction: tx.toHex() })).error).toBe(0);
}

describe('CreatePayLink and GetPayLink', () => {
  it('makes a fixed-amount link with signed terms, its page URL and no uses', async () => {
    const org = await stack.walletOrg();
    const link = await createLink(org, { maxUses: 3n });
    expect(link.terms).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      merchantHandle: org.handle,
      currency: 'USD',
      amountMinor: 1250n,
      minMinor: undefined,
      maxMinor: undefined,
      memo: 'Invoice 1042: catering',
      expiresAt: undefined,
    });
    expect(link).toMatchObject({ status: 'active', maxUses: 3n, usesPaid: 0n, usesHeld: 0n, disabledAt: undefined, createdBy: 'user-1' });
    expect(link.qrUrl).toBe(`${PUBLIC_URL}/api/v1/pay-links/${link.terms!.id}/qr`);
    expect(link.signature).toMatch(/^[0-9a-f]{64}$/);
    expect(link.pageUrl).toBe(`${PUBLIC_URL}/l/${link.terms!.id}`);
    expect(await getLink(link)).toEqual(link);
  });

  it('signs the same terms under another id differently', async () => {
    const org = await stack.walletOrg();
    const [first, second] = [await createLink(org), await createLink(org)];
    expect(first.signature).not.toBe(second.signature);
  });

  it('refuses terms that are not one fixed amount or one pair of bounds, bad currencies, memos and expiries', async () => {
    const org = await stack.walletOrg();
    const cases: [Partial<CreatePayLinkRequest>, string][] = [
      [{ amountMinor: 500n, minMinor: 100n, maxMinor: 900n }, 'amount_minor'],
      [{ amountMinor: 0n }, 'amount_minor'],
      [{ amountMinor: 0n, minMinor: 900n, maxMinor: 100n }, 'max_minor'],
      [{ amountMinor: 0n, minMinor: 0n, maxMinor: 100n }, 'max_minor'],
      [{ amountMinor: -5n }, 'amount_minor'],
      [{ amountMinor: 10n ** 15n }, 'amount_minor'],
      [{ currency: 'usd' }, 'currency'],
      [{ memo: '   ' }, 'memo'],
      [{ memo: 'Invoice\u0000 1042' }, 'memo'],
      [{ memo: 'x'.repeat(201) }, 'memo'],
      [{ maxUses: -1n }, 'max_uses'],
      [{ expiresAt: 'tomorrow' }, 'expires_at'],
      [{ expiresAt: new Date(posNow().getTime() - 1000).toISOString() }, 'expires_at'],
      [{ expiresAt: new Date(posNow().getTime() + 6 * 366 * 86_400_000).toISOString() }, 'expires_at'],
    ];
    for (const [fields, field] of cases) {
      const refused = await failure(createLink(org, fields));
      expect({ fields, code: refused.code, field: refused.details?.field ?? refused.details }).toMatchObject({
        code: 'validation_failed',
      });
      expect(JSON.stringify(refused.details)).toContain(field);
    }
    expect((await stack.client.listPayLinks({ org, publicUrl: PUBLIC_URL })).payLinks).toEqual([]);
  });

  it('answers not_found for an id no link has, and for one that is no id', async () => {
    for (const id of ['6d1b7c4e-8f0a-4b8e-9a51-3f3c1a2b9e77', 'not-an-id', '']) {
      expect((await failure(stack.client.getPayLink({ id, publicUrl: PUBLIC_URL }))).code).toBe('not_found');
    }
  });
});

describe('OpenPayLinkOrder', () => {
  it("opens an order of one line, the memo at the link's amount, tax taken out of it, from the link", async () => {
    const org = await stack.walletOrg();
    const link = await createLink(org);
    const { order } = await open(org, link);
    expect(order).toMatchObject({
      status: 'open',
      currency: 'USD',
      totalMinor: 1250n,
      subtotalMinor: 1250n,
      tipMinor: 0n,
      pricesIncludeTax: true,
      payLinkId: link.terms!.id,
      merchantHandle: org.handle,
      satoshis: 125_000n,
    });
    expect(order!.lines).toEqual([
      expect.objectContaining({ name: 'Invoice 1042: catering', quantity: 1n, unitPriceMinor: 1250n, totalMinor: 1250n }),
    ]);
    expect(order!.payUri).toMatch(/^pay:\?r=/);
    expect(await getLink(link)).toMatchObject({ usesPaid: 0n, usesHeld: 1n, status: 'active' });
  });

  it('takes no amount but its own for a fixed link', async () => {
    const org = await stack.walletOrg();
    const link = await createLink(org);
    expect((await open(org, link, 1250n)).order!.totalMinor).toBe(1250n);
    const refused = await failure(open(org, link, 1n));
    expect(refused).toMatchObject({ code: 'validation_failed', details: expect.objectContaining({ field: 'amount_minor' }) });
  });

  it("takes the payer's amount within the signed bounds and refuses one outside them", async () => {
    const org = await stack.walletOrg();
    const link = await createLink(org, { amountMinor: 0n, minMinor: 500n, maxMinor: 5_000n, memo: 'Tip jar' });
    for (const amount of [0n, 499n, 5_001n, -1n]) {
      const refused = await failure(open(org, link, amount));
      expect(refused).toMatchObject({ code: 'validation_failed', details: expect.objectContaining({ field: 'amount_minor' }) });
    }
    expect((await open(org, link, 500n)).order!.totalMinor).toBe(500n);
    expect((await open(org, link, 5_000n)).order!.totalMinor).toBe(5_000n);
    expect((await open(org, link, 1_234n)).order!.lines[0]).toMatchObject({ name: 'Tip jar', unitPriceMinor: 1_234n });
  });

  it('refuses a link whose stored terms were changed after signing, whatever field was changed', async () => {
    const org = await stack.walletOrg();
    const changes = [
      { amountMinor: 1n },
      { memo: 'Invoice 1042: nothing' },
      { currency: 'EUR' },
      { maxUses: 0n },
      { merchantHandle: 'someone-else' },
      { expiresAt: new Date(posNow().getTime() + 86_400_000) },
    ];
    for (const change of changes) {
      const link = await createLink(org, { maxUses: 5n });
      await stack.orders.prisma.payLink.update({ where: { id: link.terms!.id }, data: change });
      const refused = await failure(open(org, link));
      expect({ change, code: refused.code, reason: refused.details?.reason }).toEqual({
        change,
        code: 'failed_precondition',
        reason: 'signature',
      });
    }
    // A signature replaced by another link's is no better.
    const [victim, other] = [await createLink(org), await createLink(org, { amountMinor: 1n })];
    await stack.orders.prisma.payLink.update({ where: { id: other.terms!.id }, data: { signature: victim.signature } });
    expect((await failure(open(org, other))).details?.reason).toBe('signature');
  });

  it("refuses another organisation's link as not found, and another organisation's staff cannot list or disable it", async () => {
    const [org, other] = [await stack.walletOrg(), await stack.walletOrg()];
    const link = await createLink(org);
    expect((await failure(open(other, link))).code).toBe('not_found');
    expect((await failure(stack.client.disablePayLink({ org: other, id: link.terms!.id, publicUrl: PUBLIC_URL }))).code).toBe('not_found');
    expect((await stack.client.listPayLinks({ org: other, publicUrl: PUBLIC_URL })).payLinks).toEqual([]);
    expect((await getLink(link)).status).toBe('active');
  });

  it('counts a use when the order is paid; an unpaid order blocks no other payer, and is cancelled by the payment that takes the use; a used-up link refuses with 410', async () => {
    const org = await stack.walletOrg();
    const link = await createLink(org, { maxUses: 1n });
    const { order } = await open(org, link);
    const { order: other } = await open(org, link);
    expect(await getLink(link)).toMatchObject({ usesPaid: 0n, usesHeld: 2n, status: 'active' });
    await payInFull(order!);
    await eventually(async () => expect(await getLink(link)).toMatchObject({ usesPaid: 1n, usesHeld: 0n, status: 'used_up' }));
    expect((await stack.client.getOrder({ orderNumber: other!.orderNumber, publicUrl: PUBLIC_URL })).order).toMatchObject({
      status: 'cancelled',
    });
    // The payment lands in the books as every order's does: payment.received with the memo's line.
    const event = await eventually(() => {
      const found = stack.events.find((candidate) => candidate.description === `Order ${order!.orderNumber}`);
      expect(found).toBeDefined();
      return found!;
    });
    expect(event).toMatchObject({ organizationId: org.id, currency: 'USD', amountMinor: 1250n, satoshis: order!.satoshis });
    expect(event.lines).toEqual([expect.objectContaining({ name: 'Invoice 1042: catering', totalMinor: 1250n })]);
    expect(await failure(open(org, link))).toMatchObject({ code: 'pay_link_closed', details: { reason: 'used_up' } });
  });

  it(
    'of 50 concurrent opens of a limited link from one client address, two get an order (POS_PAY_LINK_OPENS_PER_CLIENT) and the others 429',
    { tags: ['concurrency'] },
    async () => {
      const org = await stack.walletOrg();
      const link = await createLink(org, { maxUses: 2n });
      await payInFull((await open(org, link)).order!);
      const attempts = await Promise.allSettled(Array.from({ length: 50 }, () => open(org, link, 0n, '203.0.113.9')));
      const opened = attempts.filter((attempt) => attempt.status === 'fulfilled');
      const refused = attempts.flatMap((attempt) => (attempt.status === 'rejected' ? [attempt.reason as { code: string }] : []));
      expect(opened).toHaveLength(2);
      expect(new Set(refused.map((reason) => reason.code))).toEqual(new Set(['rate_limited']));
      expect(await getLink(link)).toMatchObject({ usesPaid: 1n, usesHeld: 2n });
      expect(await stack.orders.prisma.order.count({ where: { payLinkId: link.terms!.id } })).toBe(3);
    },
  );

  it('50 concurrent payers of a link without a limit each get their own order', { tags: ['concurrency'] }, async () => {
    const org = await stack.walletOrg({ walletXpub: '', receivingAddress: PrivateKey.fromRandom().toAddress('testnet') });
    const link = await createLink(org, { amountMinor: 0n, minMinor: 100n, maxMinor: 10_000n });
    const orders = await Promise.all(Array.from({ length: 50 }, (_, i) => open(org, link, BigInt(100 + i))));
    expect(new Set(orders.map(({ order }) => order!.orderNumber)).size).toBe(50);
    expect(orders.map(({ order }) => order!.totalMinor).sort((a, b) => Number(a - b))).toEqual(
      Array.from({ length: 50 }, (_, i) => BigInt(100 + i)),
    );
    expect((await getLink(link)).usesHeld).toBe(50n);
  });
});

describe('one-use links paid by address (decision 0024)', () => {
  it('two orders of a one-use link both paid at their addresses: the watcher pays one, cancels the other and keeps its payment for a refund', async () => {
    const org = await stack.walletOrg();
    const link = await createLink(org, { maxUses: 1n });
    const orders = [(await open(org, link, 0n, '198.51.100.20')).order!, (await open(org, link, 0n, '198.51.100.21')).order!];
    const txids: string[] = [];
    for (const order of orders) {
      const { outputs } = await stack.client.getPaymentRequest({ orderNumber: order.orderNumber, publicUrl: PUBLIC_URL });
      const tx = await paying(await fundedCustomer(stack.chain), [{ script: outputs[0]!.script, satoshis: order.dueSatoshis }]);
      const response = await fetch(`${stack.chain.url}/v1/tx`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ rawTx: tx.toHex() }),
      });
      expect(response.ok).toBe(true);
      txids.push(tx.id('hex'));
    }
    await watchOnce(stack.orders);
    const after = await Promise.all(
      orders.map(async (order) => (await stack.client.getOrder({ orderNumber: order.orderNumber, publicUrl: PUBLIC_URL })).order!),
    );
    const paid = after.filter((order) => order.status === 'paid');
    const cancelled = after.filter((order) => order.status === 'cancelled');
    expect(paid).toHaveLength(1);
    expect(paid[0]!.flags).toEqual([]);
    expect(cancelled).toHaveLength(1);
    expect(cancelled[0]).toMatchObject({ paidSatoshis: cancelled[0]!.satoshis, flags: ['refund_due'] });
    expect(cancelled[0]!.payments.map((payment) => payment.via)).toEqual(['address']);
    expect(await getLink(link)).toMatchObject({ usesPaid: 1n, usesHeld: 0n, status: 'used_up' });
  });
});

describe('DisablePayLink and ListPayLinks', () => {
  it('disables a link once: it refuses new orders with 410; an order opened before stays payable', async () => {
    const org = await stack.walletOrg();
    const link = await createLink(org);
    const { order } = await open(org, link);
    const disabled = (await stack.client.disablePayLink({ org, id: link.terms!.id, publicUrl: PUBLIC_URL })).payLink!;
    expect(disabled.status).toBe('disabled');
    expect(disabled.disabledAt).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    const again = (await stack.client.disablePayLink({ org, id: link.terms!.id, publicUrl: PUBLIC_URL })).payLink!;
    expect(again.disabledAt).toBe(disabled.disabledAt);
    expect(await failure(open(org, link))).toMatchObject({ code: 'pay_link_closed', details: { reason: 'disabled' } });
    await payInFull(order!);
    await eventually(async () => expect((await getLink(link)).usesPaid).toBe(1n));
  });

  it("lists the organisation's links newest first, a page at a time", async () => {
    const org = await stack.walletOrg();
    const made = [];
    // Links made within one millisecond are listed by id among themselves: these are made a few apart.
    for (let i = 0; i < 5; i++) {
      made.push(await createLink(org, { memo: `Invoice ${i}` }));
      await new Promise((resolve) => setTimeout(resolve, 3));
    }
    const first = await stack.client.listPayLinks({ org, limit: 3, publicUrl: PUBLIC_URL });
    expect(first.payLinks.map((link) => link.terms!.memo)).toEqual(['Invoice 4', 'Invoice 3', 'Invoice 2']);
    const second = await stack.client.listPayLinks({ org, limit: 3, cursor: first.nextCursor, publicUrl: PUBLIC_URL });
    expect(second.payLinks.map((link) => link.terms!.memo)).toEqual(['Invoice 1', 'Invoice 0']);
    expect(second.nextCursor).toBe('');
    expect((await failure(stack.client.listPayLinks({ org, limit: 101, publicUrl: PUBLIC_URL }))).code).toBe('validation_failed');
  });

  it("draws the link's page URL as SVG and PNG", async () => {
    const link = await createLink(await stack.walletOrg());
    const svg = await stack.client.getPayLinkQr({ id: link.terms!.id, publicUrl: PUBLIC_URL, format: 'svg' });
    expect(svg.contentType).toBe('image/svg+xml');
    expect(Buffer.from(svg.body).toString('utf8')).toMatch(/^<svg/);
    const png = await stack.client.getPayLinkQr({ id: link.terms!.id, publicUrl: PUBLIC_URL, format: 'png' });
    expect(Buffer.from(png.body).subarray(1, 4).toString('latin1')).toBe('PNG');
    expect((await failure(stack.client.getPayLinkQr({ id: link.terms!.id, publicUrl: PUBLIC_URL, format: 'gif' }))).code).toBe(
      'validation_failed',
    );
  });
});

// These move pos's clock ahead: they run last.
describe('expiry', () => {
  it("a client address's unpaid orders that expire let it open again", async () => {
    const org = await stack.walletOrg();
    const link = await createLink(org, { maxUses: 1n });
    await open(org, link, 0n, '203.0.113.10');
    await open(org, link, 0n, '203.0.113.10');
    expect(await failure(open(org, link, 0n, '203.0.113.10'))).toMatchObject({
      code: 'rate_limited',
      details: { held_orders: 2, max_orders: 2 },
    });
    advance(901);
    expect(await getLink(link)).toMatchObject({ usesHeld: 0n, usesPaid: 0n, status: 'active' });
    expect((await open(org, link, 0n, '203.0.113.10')).order!.status).toBe('open');
  });

  it('an expired link refuses new orders with 410 and says when it expired', async () => {
    const org = await stack.walletOrg();
    const expiresAt = new Date(posNow().getTime() + 60_000).toISOString();
    const link = await createLink(org, { expiresAt });
    expect(link.terms!.expiresAt).toBe(expiresAt);
    expect((await open(org, link)).order!.totalMinor).toBe(1250n);
    advance(61);
    expect((await getLink(link)).status).toBe('expired');
    const refused = await failure(open(org, link));
    expect(refused).toMatchObject({ code: 'pay_link_closed', details: { reason: 'expired' } });
    expect(refused.message).toContain(expiresAt);
  });
});
