import { randomUUID } from 'node:crypto';
import { OrderChanged } from '@ctk/proto/ctk/events/v1/order_event';
import { COMMERCE_CONSUMER, ORDER_CHANGED_SUBJECT } from '@ctk/shared';
import { eventually } from '@ctk/shared/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failure, PUBLIC_URL, startCommerceStack, type CommerceStack } from './commerce-stack.js';

let stack: CommerceStack;
beforeAll(async () => {
  stack = await startCommerceStack();
}, 60_000);
afterAll(() => stack?.close());

/** A shop with a latte (with an oat-milk choice) and a scone. */
async function shop(fields = {}) {
  const org = await stack.walletOrg(fields);
  const latte = await stack.item(org, {
    name: 'Latte',
    priceCents: 450n,
    modifiers: [{ id: '', name: 'Oat milk', priceCents: 50n, group: '' }],
  });
  const scone = await stack.item(org, { name: 'Scone', priceCents: 325n });
  return { org, latte, scone };
}

const line = (itemId: string, quantity = 1n, modifierIds: string[] = []) => ({ itemId, quantity, modifierIds });

describe('checkouts', () => {
  it('open a pos order priced from the catalog, recorded under a new public token', async () => {
    const { org, latte, scone } = await shop();
    const { checkout } = await stack.client.createCheckout({
      org,
      lines: [line(latte.id, 2n, [latte.modifiers[0]!.id]), line(scone.id)],
      publicUrl: PUBLIC_URL,
    });
    expect(checkout?.publicToken).toMatch(/^cko_[A-Za-z0-9_-]{32}$/);
    expect(checkout?.status).toBe('pending');
    const order = checkout!.order!;
    expect(order).toMatchObject({
      status: 'open',
      currency: 'USD',
      subtotalMinor: 1325n,
      taxMinor: 0n,
      totalMinor: 1325n,
      satoshis: 132_500n,
    });
    expect(order.lines.map((l) => [l.name, l.quantity, l.unitPriceMinor])).toEqual([
      ['Latte', 2n, 500n],
      ['Scone', 1n, 325n],
    ]);
    expect(order.note).toBe('Online checkout');
    expect(order.payUri).toBe(`pay:?r=${encodeURIComponent(`${PUBLIC_URL}/api/pos/orders/${order.orderNumber}/payment-request`)}`);
    // The order is pos's own: readable there by number.
    expect((await stack.pos.getOrder({ orderNumber: order.orderNumber, publicUrl: PUBLIC_URL })).order?.totalMinor).toBe(1325n);
    // Two checkouts, two tokens and two orders.
    const again = (await stack.client.createCheckout({ org, lines: [line(scone.id)], publicUrl: PUBLIC_URL })).checkout!;
    expect(again.publicToken).not.toBe(checkout?.publicToken);
    expect(again.order?.orderNumber).not.toBe(order.orderNumber);
  });

  it('are taxed by pos as at the counter', async () => {
    const { org, scone } = await shop({ jurisdiction: 'US-CA' });
    const order = (await stack.client.createCheckout({ org, lines: [line(scone.id, 4n)], publicUrl: PUBLIC_URL })).checkout!.order!;
    const rate = Number(order.lines[0]!.taxRate);
    expect(rate).toBeGreaterThan(0);
    expect(order.taxMinor).toBe(BigInt(Math.round(1300 * rate)));
    expect(order.totalMinor).toBe(1300n + order.taxMinor);
  });

  it('take only items of the catalog, naming the line', async () => {
    const { org, scone } = await shop();
    const hidden = await stack.item(org, { name: 'Hidden', priceCents: 100n, available: false });
    const theirs = (await shop()).scone;
    for (const itemId of [hidden.id, theirs.id, randomUUID()]) {
      const refused = await failure(stack.client.createCheckout({ org, lines: [line(scone.id), line(itemId)], publicUrl: PUBLIC_URL }));
      expect(refused).toMatchObject({ code: 'validation_failed', details: { field: 'lines[1].item_id' } });
    }
    // Off the menu once a menu is saved.
    await stack.pos.replaceMenu({ org, expectedVersion: 0n, sections: [{ name: 'Tea', itemIds: [] }] });
    const offMenu = await failure(stack.client.createCheckout({ org, lines: [line(scone.id)], publicUrl: PUBLIC_URL }));
    expect(offMenu).toMatchObject({ code: 'validation_failed', details: { field: 'lines[0].item_id' } });
  });

  it.each([
    ['no lines', [], 'lines'],
    ['a quantity of 0', [{ quantity: 0n }], 'lines.0.quantity'],
    ['a quantity above 10000', [{ quantity: 10_001n }], 'lines.0.quantity'],
    ['101 lines', Array.from({ length: 101 }, () => ({})), 'lines'],
    ['21 modifiers on a line', [{ modifierIds: Array.from({ length: 21 }, (_, i) => `m${i}`) }], 'lines.0.modifier_ids'],
    ['an item id that is not a UUID', [{ itemId: 'latte' }], 'lines.0.item_id'],
  ])('refuse %s as validation_failed', async (_, lines, field) => {
    const { org, scone } = await shop();
    const request = lines.map((fields) => ({ ...line(scone.id), ...fields }));
    expect(await failure(stack.client.createCheckout({ org, lines: request, publicUrl: PUBLIC_URL }))).toMatchObject({
      code: 'validation_failed',
      details: { field },
    });
  });

  it('pass on what pos refuses: more than the stock, a modifier not the item’s', async () => {
    const { org, latte, scone } = await shop();
    const few = await stack.item(org, { name: 'Few', priceCents: 100n, inventory: 2n });
    expect(await failure(stack.client.createCheckout({ org, lines: [line(few.id, 3n)], publicUrl: PUBLIC_URL }))).toMatchObject({
      code: 'validation_failed',
      details: { field: 'lines[0].quantity' },
    });
    expect(
      await failure(stack.client.createCheckout({ org, lines: [line(scone.id, 1n, [latte.modifiers[0]!.id])], publicUrl: PUBLIC_URL })),
    ).toMatchObject({ code: 'validation_failed', details: { field: 'lines[0].modifiers' } });
  });

  it(
    'opened 12 at once are each recorded as asked: its own token, order and total, read back by its token',
    { tags: ['concurrency'] },
    async () => {
      const { org, scone } = await shop();
      // Checkouts opened together may share one insert (batchedWrites): none may get another's order. (At most 15
      // unpaid checkouts of one shop hold an address at once, decision 0022.)
      const created = await Promise.all(
        Array.from({ length: 12 }, async (_, index) => {
          const quantity = BigInt(index + 1);
          const { checkout } = await stack.client.createCheckout({ org, lines: [line(scone.id, quantity)], publicUrl: PUBLIC_URL });
          return { quantity, checkout: checkout! };
        }),
      );
      for (const { quantity, checkout } of created) {
        expect(checkout.order!.totalMinor).toBe(325n * quantity);
        const { checkout: read } = await stack.client.getCheckout({ org, publicToken: checkout.publicToken, publicUrl: PUBLIC_URL });
        expect(read).toMatchObject({ publicToken: checkout.publicToken, status: 'pending', createdAt: checkout.createdAt });
        expect(read!.order).toMatchObject({
          orderNumber: checkout.order!.orderNumber,
          totalMinor: 325n * quantity,
          satoshis: 32_500n * quantity,
        });
      }
      expect(new Set(created.map(({ checkout }) => checkout.publicToken)).size).toBe(12);
    },
  );

  it('an organisation without a wallet is refused by pos, which names the route to register one', async () => {
    const { org, scone } = await shop({ walletXpub: '' });
    const refused = await failure(stack.client.createCheckout({ org, lines: [line(scone.id)], publicUrl: PUBLIC_URL }));
    expect(refused.code).toBe('failed_precondition');
    expect(refused.message).toContain(`PATCH /api/v1/organizations/`);
  });
});

describe('a checkout read by its public token', () => {
  it('is pending, then paid once its order is paid, then confirmed once the payment is mined', async () => {
    const { org, scone } = await shop();
    const created = (await stack.client.createCheckout({ org, lines: [line(scone.id)], publicUrl: PUBLIC_URL })).checkout!;
    const read = () => stack.client.getCheckout({ org, publicToken: created.publicToken, publicUrl: PUBLIC_URL }).then((r) => r.checkout!);
    expect((await read()).status).toBe('pending');
    expect((await read()).order).toMatchObject({ satoshis: 32_500n, paidSatoshis: 0n, dueSatoshis: 32_500n });
    await stack.payOrder(created.order!.orderNumber);
    // Once its order's change reached commerce (decision 0046), as an integrator polling sees it.
    await eventually(async () => expect((await read()).status).toBe('paid'));
    const paid = await read();
    expect(paid.order).toMatchObject({ orderNumber: created.order!.orderNumber, paidSatoshis: 32_500n, dueSatoshis: 0n });
    expect(paid.order!.paidAt).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(paid.createdAt).toBe(created.createdAt);
    await stack.mine();
    await eventually(async () => expect((await read()).status).toBe('confirmed'));
  });

  it('is expired once its order expired unpaid', async () => {
    const { org, scone } = await shop();
    const created = (await stack.client.createCheckout({ org, lines: [line(scone.id)], publicUrl: PUBLIC_URL })).checkout!;
    stack.advance(901);
    try {
      const expired = (await stack.client.getCheckout({ org, publicToken: created.publicToken, publicUrl: PUBLIC_URL })).checkout!;
      expect(expired.status).toBe('expired');
    } finally {
      stack.advance(-901);
    }
  });

  it('follows its order’s changes whatever order they arrive in: an older, repeated or another shop’s change records nothing', async () => {
    const { org, scone } = await shop();
    const created = (await stack.client.createCheckout({ org, lines: [line(scone.id)], publicUrl: PUBLIC_URL })).checkout!;
    const orderNumber = created.order!.orderNumber;
    const read = () => stack.client.getCheckout({ org, publicToken: created.publicToken, publicUrl: PUBLIC_URL }).then((r) => r.checkout!);
    await stack.payOrder(orderNumber);
    await eventually(async () => expect((await read()).status).toBe('paid'));
    const deliver = async (id: string, data: Uint8Array) => {
      await stack.transport.publish({ id, subject: ORDER_CHANGED_SUBJECT, data });
      await eventually(() => expect(stack.handledBy(COMMERCE_CONSUMER, id)).toBe(true));
    };
    const change = (fields: Partial<OrderChanged>) =>
      OrderChanged.encode(OrderChanged.fromPartial({ organizationId: org.id, orderNumber, ...fields })).finish();
    // The payment was the order's first change: the same version again, or an older one, is not recorded.
    await deliver('stale-1', change({ id: 'stale-1', version: 1n, status: 'open', satoshis: 32_500n, paidSatoshis: 0n }));
    await deliver('stale-0', change({ id: 'stale-0', version: 0n, status: 'cancelled', satoshis: 32_500n }));
    // Another organisation's change naming this order, and bytes that are no change at all.
    const other = await stack.walletOrg();
    await deliver('theirs', change({ id: 'theirs', organizationId: other.id, version: 9n, status: 'cancelled', satoshis: 1n }));
    await deliver('garbage', Uint8Array.from([0x0a, 0xff, 0xff, 0xff, 0xff, 0x0f]));
    expect(await read()).toMatchObject({ status: 'paid', order: { satoshis: 32_500n, paidSatoshis: 32_500n, dueSatoshis: 0n } });

    // A newer change is what the read of a paid checkout answers, as recorded (pos is not asked).
    const confirmedAt = new Date('2026-11-30T12:00:00.000Z');
    await deliver(
      'newer',
      change({ id: 'newer', version: 7n, status: 'confirmed', satoshis: 32_500n, paidSatoshis: 32_500n, confirmedAt }),
    );
    expect(await read()).toMatchObject({ status: 'confirmed', order: { confirmedAt: confirmedAt.toISOString() } });
  });

  it('pending, answers commerce’s record alone; the order followed on request records pos’s state, once', async () => {
    const { org, scone } = await shop();
    const created = (await stack.client.createCheckout({ org, lines: [line(scone.id)], publicUrl: PUBLIC_URL })).checkout!;
    const orderNumber = created.order!.orderNumber;
    const row = () => stack.commerceDatabase().checkout.findUniqueOrThrow({ where: { publicToken: created.publicToken } });
    const read = () => stack.client.getCheckout({ org, publicToken: created.publicToken, publicUrl: PUBLIC_URL }).then((r) => r.checkout!);
    const release = stack.holdBack(COMMERCE_CONSUMER);
    try {
      await stack.payOrder(orderNumber);
      // While the change is on its way here, the read answers the record (decision 0055) and writes nothing.
      const before = await row();
      expect(await read()).toMatchObject({ status: 'pending', order: { paidSatoshis: 0n, dueSatoshis: 32_500n } });
      expect(await row()).toEqual(before);
      // What the gateway asks before its stream sends a final state: pos's state recorded, as the change would be.
      await stack.client.followOrder({ orderNumber: orderNumber.toLowerCase() });
      expect(await row()).toMatchObject({ status: 'paid', paidSatoshis: 32_500n, orderVersion: 1n, followsOrder: true });
      expect(await read()).toMatchObject({ status: 'paid', order: { paidSatoshis: 32_500n, dueSatoshis: 0n } });
      const recorded = await row();
      await stack.client.followOrder({ orderNumber });
      expect(await row()).toEqual(recorded);
    } finally {
      release();
    }
    // The change itself, delivered after, is no newer: nothing is written again.
    const recorded = await row();
    const { state } = await stack.pos.getOrderState({ orderNumber });
    await eventually(() => expect(stack.handledBy(COMMERCE_CONSUMER, state!.id)).toBe(true));
    expect(await row()).toEqual(recorded);
    // A counter order, which no checkout opened, paid and followed: no checkout is written.
    const counter = (await stack.pos.createOrder({ org, lines: [{ itemId: scone.id, quantity: 1n }], publicUrl: PUBLIC_URL })).order!;
    await stack.payOrder(counter.orderNumber);
    await stack.client.followOrder({ orderNumber: counter.orderNumber });
    expect(await stack.commerceCheckouts().byOrderNumber(org.id, counter.orderNumber)).toBeNull();
    expect(await row()).toEqual(recorded);
    // An order number no order has is not found (pos's answer).
    expect((await failure(stack.client.followOrder({ orderNumber: '0000000000' }))).code).toBe('not_found');
  });

  it('is read by its public token, within its shop only, as Prisma reads its row', async () => {
    const { org, scone } = await shop();
    const created = (await stack.client.createCheckout({ org, lines: [line(scone.id)], publicUrl: PUBLIC_URL })).checkout!;
    await stack.payOrder(created.order!.orderNumber);
    const where = { publicToken: created.publicToken };
    await eventually(async () =>
      expect(await stack.commerceDatabase().checkout.findUniqueOrThrow({ where })).toMatchObject({ status: 'paid' }),
    );
    const read = await stack.commerceCheckouts().byToken(org.id, created.publicToken);
    expect(read).toEqual(await stack.commerceDatabase().checkout.findUniqueOrThrow({ where }));
    expect(read).toMatchObject({ paidAt: expect.any(Date), orderVersion: 1n, satoshis: 32_500n, followsOrder: true });
    expect(await stack.commerceCheckouts().byToken(randomUUID(), created.publicToken)).toBeNull();
  });

  it('made before checkouts followed their orders, takes its order’s state from pos until a change of it is recorded', async () => {
    const { org, scone } = await shop();
    const created = (await stack.client.createCheckout({ org, lines: [line(scone.id)], publicUrl: PUBLIC_URL })).checkout!;
    const row = () => stack.commerceDatabase().checkout.findUniqueOrThrow({ where: { publicToken: created.publicToken } });
    await stack.payOrder(created.order!.orderNumber);
    await eventually(async () => expect((await row()).status).toBe('paid'));
    // As the migration leaves a row of an older version: never told of its order's changes. Its version is no
    // older than pos's (1 here): an order paid before pos counted its changes is at 0, as such a row is.
    await stack.commerceDatabase().checkout.update({
      where: { publicToken: created.publicToken },
      data: { followsOrder: false, status: 'pending', paidSatoshis: 0n, orderVersion: 1n },
    });
    const read = () => stack.client.getCheckout({ org, publicToken: created.publicToken, publicUrl: PUBLIC_URL }).then((r) => r.checkout!);
    expect(await read()).toMatchObject({ status: 'paid', order: { paidSatoshis: 32_500n, dueSatoshis: 0n } });
    expect(await row()).toMatchObject({ followsOrder: false, status: 'pending' });
    await stack.mine();
    await eventually(async () => expect(await row()).toMatchObject({ followsOrder: true, status: 'confirmed', paidSatoshis: 32_500n }));
    expect((await read()).status).toBe('confirmed');
  });

  it('is not found by another organisation, nor by a token that is not one', async () => {
    const { org, scone } = await shop();
    const created = (await stack.client.createCheckout({ org, lines: [line(scone.id)], publicUrl: PUBLIC_URL })).checkout!;
    const other = await stack.walletOrg();
    expect((await failure(stack.client.getCheckout({ org: other, publicToken: created.publicToken, publicUrl: PUBLIC_URL }))).code).toBe(
      'not_found',
    );
    for (const publicToken of ['', 'cko_short', created.order!.orderNumber, `cko_${'A'.repeat(32)}`])
      expect((await failure(stack.client.getCheckout({ org, publicToken, publicUrl: PUBLIC_URL }))).code).toBe('not_found');
  });
});
