import { hashOrderLines, receiptScript } from '@ctk/chain';
import { mineBlocks } from '@ctk/chain/local';
import { PaymentEventType } from '@ctk/proto/ctk/events/v1/payment_event';
import type { Order } from '@ctk/proto/ctk/pos/v1/pos';
import { eventually } from '@ctk/shared/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { oldOrderRound, watchOnce, watcherState } from '../src/orders/order-watcher.js';
import { newItem } from './support.js';
import { failure, fundedCustomer, orderRequest, paying, PUBLIC_URL, startOrderStack, type OrderStack } from './order-stack.js';

let stack: OrderStack;
beforeAll(async () => {
  stack = await startOrderStack();
}, 60_000);
afterAll(() => stack?.close());

const create = async (...args: Parameters<typeof orderRequest>) => (await stack.client.createOrder(orderRequest(...args))).order!;
const get = async (order: Order) => (await stack.client.getOrder({ orderNumber: order.orderNumber, publicUrl: PUBLIC_URL })).order!;
const scriptOf = async (order: Order) =>
  (await stack.client.getPaymentRequest({ orderNumber: order.orderNumber, publicUrl: PUBLIC_URL })).outputs;
/** A customer's transaction paying the order what `satoshis` says, with the receipt output unless told not to. */
async function payment(order: Order, satoshis: bigint, options: { receipt?: boolean } = {}) {
  const [output, receipt] = await scriptOf(order);
  const outputs = [{ script: output!.script, satoshis }, ...(options.receipt === false ? [] : [{ script: receipt!.script, satoshis: 0 }])];
  return paying(await fundedCustomer(stack.chain), outputs);
}
const pay = (order: Order, hex: string) => stack.client.payOrder({ orderNumber: order.orderNumber, transaction: hex });
const eventsOf = (order: Order) =>
  stack.events.filter((event) => event.id.startsWith('pos.order.') && event.description === `Order ${order.orderNumber}`);

describe('CreateOrder', () => {
  it('prices the lines, takes the rate, allocates a fresh output of the wallet, and answers the payment URIs', async () => {
    const org = await stack.walletOrg();
    const item = (await stack.client.createItem(newItem(org, { name: 'Oat milk latte', priceCents: 625n }))).item!;
    const order = await create(org, {
      lines: [{ itemId: item.id, quantity: 2n } as never, { name: 'Pastry of the day', quantity: 1n, unitPriceMinor: 425n } as never],
      discountBasisPoints: 1000,
      tipBasisPoints: 1500,
      note: 'Table 4',
    });
    expect(order.orderNumber).toMatch(/^[0-9A-HJKMNP-TV-Z]{10}$/);
    // No jurisdiction: standard lines at 0 tax; the tip is 15% of 1507 = 226.05 -> 226.
    expect(order).toMatchObject({
      status: 'open',
      currency: 'USD',
      subtotalMinor: 1675n,
      discountMinor: 168n,
      taxMinor: 0n,
      tipMinor: 226n,
    });
    expect(order.totalMinor).toBe(1733n);
    expect(order).toMatchObject({ exchangeRate: '100', rateSource: 'fixed', satoshis: 173_300n, dueSatoshis: 173_300n, paidSatoshis: 0n });
    expect(order.lines.map((line) => [line.itemId, line.name, line.discountMinor])).toEqual([
      [item.id, 'Oat milk latte', 125n],
      ['', 'Pastry of the day', 43n],
    ]);
    const requestUrl = `${PUBLIC_URL}/api/pos/orders/${order.orderNumber}/payment-request`;
    expect(order.paymentRequestUrl).toBe(requestUrl);
    expect(order.payUri).toBe(`pay:?r=${encodeURIComponent(requestUrl)}`);
    expect(order.bip21Uri).toBe(
      `bitcoin:${order.address}?sv&amount=${Number(order.satoshis) / 1e8}&label=${org.handle}&message=Order%20${order.orderNumber}&r=${encodeURIComponent(requestUrl)}`,
    );
    expect(order.receiptMerchant).toBe(`${org.handle}@pay.example.com`);
    // Another order of the same wallet gets another address.
    expect((await create(org)).address).not.toBe(order.address);
  });

  it('tips a share of the amount before tax; takes the standard rate of the jurisdiction from books', async () => {
    const org = await stack.walletOrg({ jurisdiction: 'US-CA' });
    const order = await create(org, { lines: [{ name: 'Beans', quantity: 1n, unitPriceMinor: 2000n } as never], tipBasisPoints: 1000 });
    expect(order.taxJurisdiction).toBe('US-CA');
    const rate = order.lines[0]!.taxRate;
    expect(rate).toMatch(/^0\.\d+$/);
    const tax = BigInt(Math.round(2000 * Number(rate)));
    expect(order.taxMinor).toBe(tax);
    // 10% of 2000, the goods before tax: the tip is not taken on the tax.
    expect(order.tipMinor).toBe(200n);
    expect(order.totalMinor).toBe(2000n + tax + order.tipMinor);
  });

  it('taxes each order by the settings books holds when it is created, though pos keeps them between orders (decision 0053)', async () => {
    const org = await stack.walletOrg({ jurisdiction: 'GB' });
    const beans = { lines: [{ name: 'Beans', quantity: 1n, unitPriceMinor: 1200n } as never] };
    // GB's prices include its 20%: 1200 is 1000 and 200 of tax.
    expect(await create(org, beans)).toMatchObject({ taxJurisdiction: 'GB', taxMinor: 200n, totalMinor: 1200n });
    expect(await create(org, beans)).toMatchObject({ taxJurisdiction: 'GB', taxMinor: 200n, totalMinor: 1200n });
    await stack.books.setTaxSettings({ org, jurisdiction: 'DE' });
    // DE's 19%, prices still including it by DE's default: 1200 / 1.19 = 1008.40..., so 192 of tax.
    expect(await create(org, beans)).toMatchObject({ taxJurisdiction: 'DE', taxMinor: 192n, totalMinor: 1200n });
    await stack.books.setTaxSettings({ org, pricesIncludeTax: false });
    expect(await create(org, beans)).toMatchObject({ taxJurisdiction: 'DE', taxMinor: 228n, totalMinor: 1428n });
  });

  it('answers the BIP270 request: the due satoshis to the order output, then the receipt output over the lines and the tip', async () => {
    const org = await stack.walletOrg();
    const order = await create(org, { lines: [{ name: 'Flat white', quantity: 2n, unitPriceMinor: 450n } as never], tipMinor: 100n });
    const request = await stack.client.getPaymentRequest({ orderNumber: order.orderNumber, publicUrl: PUBLIC_URL });
    const linesHash = hashOrderLines([
      { item_id: null, name: 'Flat white', quantity: 2, unit_price_minor: 450, currency: 'USD' },
      { item_id: null, name: 'Tip', quantity: 1, unit_price_minor: 100, currency: 'USD' },
    ]);
    expect(request.outputs).toEqual([
      expect.objectContaining({ amount: 100_000n }),
      expect.objectContaining({
        amount: 0n,
        script: receiptScript({ merchant: `${org.handle}@pay.example.com`, reference: order.orderNumber, linesHash }).toHex(),
      }),
    ]);
    expect(request.paymentUrl).toBe(`${PUBLIC_URL}/api/pos/orders/${order.orderNumber}/payment`);
    expect(Number(request.expirationTimestamp - request.creationTimestamp)).toBe(900);
  });

  it.each([
    ['no lines', { lines: [] }, 'lines'],
    ['both discounts', { discountBasisPoints: 100, discountMinor: 5n }, 'discount_minor'],
    ['a keypad line without a price', { lines: [{ name: 'Thing', quantity: 1n } as never] }, 'lines[0].unit_price_minor'],
    ['a NUL in the note', { note: 'Table\u00004' }, 'note'],
    ['a line feed in a name', { lines: [{ name: 'A\nB', quantity: 1n, unitPriceMinor: 5n } as never] }, 'lines.0.name'],
    ['a discount above the subtotal', { discountMinor: 451n }, 'discount_minor'],
    ['a quantity of 0', { lines: [{ name: 'A', quantity: 0n, unitPriceMinor: 5n } as never] }, 'lines.0.quantity'],
    // The bounds of an order (ORDER_LIMITS): pos is the one place they are checked, the gateway passes them on.
    ['101 lines', { lines: Array.from({ length: 101 }, () => ({ name: 'A', quantity: 1n, unitPriceMinor: 5n }) as never) }, 'lines'],
    ['a quantity of 10,001', { lines: [{ name: 'A', quantity: 10_001n, unitPriceMinor: 5n } as never] }, 'lines.0.quantity'],
    [
      '21 modifiers on a line',
      {
        lines: [
          { name: 'A', quantity: 1n, unitPriceMinor: 5n, modifiers: Array.from({ length: 21 }, (_, i) => ({ modifierId: `m${i}` })) },
        ],
      },
      'lines.0.modifiers',
    ],
    ['a discount of 10,001 basis points', { discountBasisPoints: 10_001 }, 'discount_basis_points'],
    ['a tip of 10,001 basis points', { tipBasisPoints: 10_001 }, 'tip_basis_points'],
    ['a negative tip', { tipBasisPoints: -1 }, 'tip_basis_points'],
    ['a negative unit price', { lines: [{ name: 'A', quantity: 1n, unitPriceMinor: -1n } as never] }, 'lines.0.unit_price_minor'],
    ['a currency that is not ISO 4217', { currency: 'usd' }, 'currency'],
    ['a note of 501 characters', { note: 'n'.repeat(501) }, 'note'],
  ])('refuses %s, naming the field, and records nothing', async (_, fields, field) => {
    const refused = await failure(stack.client.createOrder(orderRequest(await stack.walletOrg(), fields as never)));
    expect(refused.code).toBe('validation_failed');
    expect(JSON.stringify(refused.details)).toContain(field);
  });

  it(
    'records each of 12 orders opened at once as asked: its own lines, total and address, in its answer and read back',
    { tags: ['concurrency'] },
    async () => {
      const org = await stack.walletOrg();
      // Orders opened together may share one insert (batchedWrites): none may get another's lines or output. (At
      // most 15 unpaid orders of one wallet that anyone may open hold an address at once, decision 0022.)
      const asked = Array.from({ length: 12 }, (_, index) => ({
        name: `Cake ${index}`,
        quantity: BigInt(index + 1),
        unitPriceMinor: 100n + BigInt(index),
      }));
      const orders = await Promise.all(asked.map((line) => create(org, { lines: [line as never] })));
      for (const [index, order] of orders.entries()) {
        const line = asked[index]!;
        const read = await get(order);
        for (const seen of [order, read]) {
          expect(seen.lines.map((each) => [each.name, each.quantity, each.unitPriceMinor])).toEqual([
            [line.name, line.quantity, line.unitPriceMinor],
          ]);
          expect(seen.totalMinor).toBe(line.quantity * line.unitPriceMinor);
          expect(seen.address).toBe(order.address);
        }
      }
      expect(new Set(orders.map((order) => order.orderNumber)).size).toBe(12);
      expect(new Set(orders.map((order) => order.address)).size).toBe(12);
    },
  );

  it("refuses another organisation's item as not one of its own", async () => {
    const other = await stack.walletOrg();
    const item = (await stack.client.createItem(newItem(other))).item!;
    const refused = await failure(
      stack.client.createOrder(orderRequest(await stack.walletOrg(), { lines: [{ itemId: item.id, quantity: 1n } as never] })),
    );
    expect(refused).toMatchObject({ code: 'validation_failed', details: { field: 'lines[0].item_id' } });
  });

  it('refuses an organisation without a wallet, naming what to register', async () => {
    const refused = await failure(stack.client.createOrder(orderRequest(await stack.walletOrg({ walletXpub: '' }))));
    expect(refused.code).toBe('failed_precondition');
  });
});

describe('paying an order', () => {
  it('BIP270: pays the order once, emits payment.received once, and acknowledges a retry of the same transaction', async () => {
    const order = await create(await stack.walletOrg(), { tipMinor: 50n });
    const tx = await payment(order, order.dueSatoshis);
    const ack = await pay(order, tx.toHex());
    expect(ack).toMatchObject({ error: 0, transaction: tx.toHex() });
    const paid = await get(order);
    expect(paid).toMatchObject({ status: 'paid', paidSatoshis: order.satoshis, dueSatoshis: 0n, flags: [] });
    expect(paid.payments).toEqual([
      expect.objectContaining({ txid: tx.id('hex'), satoshis: order.satoshis, via: 'payment_request', late: false }),
    ]);
    // The claim the payment took ended with it, in the transaction that recorded it.
    expect(await stack.orders.orders.byNumber(order.orderNumber)).toMatchObject({ claimedTxid: null, claimedAt: null });
    expect((await pay(order, tx.toHex())).error).toBe(0);
    expect((await get(order)).payments).toHaveLength(1);
    const [event] = await eventually(() => {
      const found = eventsOf(order);
      expect(found).toHaveLength(1);
      return found;
    });
    expect(event).toMatchObject({
      type: PaymentEventType.PAYMENT_EVENT_TYPE_PAYMENT_RECEIVED,
      sourceService: 'pos',
      sourceReference: order.orderNumber,
      currency: 'USD',
      amountMinor: 500n,
      taxMinor: 0n,
      tipMinor: 50n,
      satoshis: order.satoshis,
      exchangeRate: '100',
      rateSource: 'fixed',
      txid: tx.id('hex'),
    });
    expect(event!.id).toMatch(/^pos\.order\.[0-9a-f-]{36}$/);
    expect(event!.lines).toEqual([expect.objectContaining({ name: 'Flat white', quantity: 1n, unitPriceMinor: 450n, totalMinor: 450n })]);
  });

  it('BIP270: refuses a transaction paying less than is due, or without the receipt output, broadcasting nothing', async () => {
    const order = await create(await stack.walletOrg());
    const short = await payment(order, order.dueSatoshis - 1n);
    expect((await failure(pay(order, short.toHex()))).code).toBe('payment_underpaid');
    const noReceipt = await payment(order, order.dueSatoshis, { receipt: false });
    expect((await failure(pay(order, noReceipt.toHex()))).code).toBe('payment_wrong_output');
    expect((await failure(pay(order, 'zz'))).code).toBe('validation_failed');
    expect(await get(order)).toMatchObject({ status: 'open', paidSatoshis: 0n });
  });

  it('an overpayment pays the order and is flagged overpaid', async () => {
    const order = await create(await stack.walletOrg());
    await pay(order, (await payment(order, order.dueSatoshis + 1_000n)).toHex());
    expect(await get(order)).toMatchObject({ status: 'paid', paidSatoshis: order.satoshis + 1_000n, flags: ['overpaid'] });
  });

  it('20 concurrent payments and confirmations of one transaction pay the order once', { tags: ['concurrency'] }, async () => {
    const org = await stack.walletOrg();
    const order = await create(org);
    const tx = await payment(order, order.dueSatoshis);
    const txid = tx.id('hex');
    const attempts = await Promise.allSettled(
      Array.from({ length: 20 }, (_, i) =>
        i % 2 ? pay(order, tx.toHex()) : stack.client.confirmOrder({ org, orderNumber: order.orderNumber, txid, publicUrl: PUBLIC_URL }),
      ),
    );
    // The first payment broadcasts; a confirmation racing ahead of the broadcast may not find the transaction yet.
    expect(attempts.filter((attempt) => attempt.status === 'fulfilled').length).toBeGreaterThan(0);
    const paid = await get(order);
    expect(paid).toMatchObject({ status: 'paid', paidSatoshis: order.satoshis });
    expect(paid.payments).toHaveLength(1);
    await eventually(() => expect(eventsOf(order)).toHaveLength(1));
  });

  it(
    'one transaction paying two orders pays both, each by its own output, offered to both at once (decision 0022)',
    { tags: ['concurrency'] },
    async () => {
      const org = await stack.walletOrg();
      const [first, second] = [await create(org), await create(org)];
      const [firstOutput] = await scriptOf(first);
      const [secondOutput] = await scriptOf(second);
      const tx = await paying(await fundedCustomer(stack.chain), [
        { script: firstOutput!.script, satoshis: first.dueSatoshis },
        { script: secondOutput!.script, satoshis: second.dueSatoshis },
      ]);
      await broadcast(tx.toHex());
      const confirm = (order: Order) =>
        stack.client.confirmOrder({ org, orderNumber: order.orderNumber, txid: tx.id('hex'), publicUrl: PUBLIC_URL });
      // Each order twice at once: a confirmation again of the same payment records nothing more.
      const attempts = await Promise.allSettled([confirm(first), confirm(second), confirm(first), confirm(second)]);
      expect(attempts.filter((attempt) => attempt.status === 'rejected')).toEqual([]);
      const states = [await get(first), await get(second)].map((order) => [order.status, order.payments.length, order.dueSatoshis]);
      expect(states).toEqual([
        ['paid', 1, 0n],
        ['paid', 1, 0n],
      ]);
    },
  );

  it('the watcher settles payments seen at the address: a partial one leaves the rest due, the next completes it; mined, it is confirmed', async () => {
    const order = await create(await stack.walletOrg());
    const half = order.dueSatoshis / 2n;
    const [output] = await scriptOf(order);
    const customer = await fundedCustomer(stack.chain);
    const firstTx = await paying(customer, [{ script: output!.script, satoshis: half }]);
    await broadcast(firstTx.toHex());
    await watchOnce(stack.orders);
    const partial = await get(order);
    expect(partial).toMatchObject({ status: 'open', paidSatoshis: half, dueSatoshis: order.satoshis - half });
    expect(partial.bip21Uri).toContain(`amount=${Number(order.satoshis - half) / 1e8}&`);
    expect((await scriptOf(order))[0]!.amount).toBe(order.satoshis - half);

    const secondTx = await paying(await fundedCustomer(stack.chain), [{ script: output!.script, satoshis: order.satoshis - half }]);
    await broadcast(secondTx.toHex());
    await watchOnce(stack.orders);
    const paid = await get(order);
    expect(paid).toMatchObject({ status: 'paid', paidSatoshis: order.satoshis, dueSatoshis: 0n });
    expect(paid.payments.map((payment) => payment.via)).toEqual(['address', 'address']);

    await mineBlocks(stack.chain.url, 1);
    await watchOnce(stack.orders);
    const confirmed = await get(order);
    expect(confirmed.status).toBe('confirmed');
    expect(confirmed.confirmedAt).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(confirmed.payments.every((payment) => payment.status === 'mined')).toBe(true);

    // Each change of its state was published once, in order, with the state after it (ctk.orders.changed).
    const changes = await eventually(() => {
      const mine = stack.orderChanges.filter((change) => change.orderNumber === order.orderNumber);
      expect(mine).toHaveLength(3);
      return mine;
    });
    expect(changes.map(({ version, status, paidSatoshis }) => ({ version, status, paidSatoshis }))).toEqual([
      { version: 1n, status: 'open', paidSatoshis: half },
      { version: 2n, status: 'paid', paidSatoshis: order.satoshis },
      { version: 3n, status: 'confirmed', paidSatoshis: order.satoshis },
    ]);
    expect(changes[2]).toMatchObject({
      satoshis: order.satoshis,
      paidAt: new Date(paid.paidAt!),
      confirmedAt: new Date(confirmed.confirmedAt!),
    });
    expect(new Set(changes.map((change) => change.id)).size).toBe(3);
  });

  it('a cancel is published as a change of the order; a read is not', async () => {
    const org = await stack.walletOrg();
    const order = await create(org);
    await get(order);
    await stack.client.cancelOrder({ org, orderNumber: order.orderNumber, publicUrl: PUBLIC_URL });
    const [change] = await eventually(() => {
      const mine = stack.orderChanges.filter((change) => change.orderNumber === order.orderNumber);
      expect(mine).toHaveLength(1);
      return mine;
    });
    expect(change).toMatchObject({ version: 1n, status: 'cancelled', paidSatoshis: 0n });
  });

  it('the watcher reads every watched order, however many: the newest is seen past a page of older ones', async () => {
    const org = await stack.walletOrg();
    for (let i = 0; i < 3; i++) await create(org);
    const newest = await create(org);
    const [output] = await scriptOf(newest);
    const tx = await paying(await fundedCustomer(stack.chain), [{ script: output!.script, satoshis: newest.dueSatoshis }]);
    await broadcast(tx.toHex());
    // Pages of two: the three older orders (and every other test's still watched) come first.
    await watchOnce(stack.orders, watcherState(), 2);
    expect(await get(newest)).toMatchObject({ status: 'paid', paidSatoshis: newest.satoshis });
  });

  it("the watcher asks about an open order's address every round for two minutes, then in the one round of six its address names", async () => {
    const org = await stack.walletOrg();
    const young = await create(org);
    // An order whose address is asked in round 3 or later, so that the rounds before it show it is not asked then.
    const dueRound = (order: Order) => oldOrderRound(order.address) || 6;
    let old = await create(org);
    for (let tries = 0; tries < 12 && dueRound(old) < 3; tries++) old = await create(org);
    expect(dueRound(old)).toBeGreaterThanOrEqual(3);
    const state = watcherState();
    await watchOnce(stack.orders, state);
    stack.advance(121);
    try {
      const [oldOutput] = await scriptOf(old);
      await broadcast(
        (await paying(await fundedCustomer(stack.chain), [{ script: oldOutput!.script, satoshis: old.dueSatoshis }])).toHex(),
      );
      // Rounds 1 to 6: the order, now over two minutes old, is seen in the one its address names, and not before.
      for (let round = 1; round < dueRound(old); round++) {
        await watchOnce(stack.orders, state);
        expect((await get(old)).status).toBe('open');
      }
      await watchOnce(stack.orders, state);
      expect((await get(old)).status).toBe('paid');
      // One made since is asked about in the very next round.
      const fresh = await create(org);
      const [freshOutput] = await scriptOf(fresh);
      await broadcast(
        (await paying(await fundedCustomer(stack.chain), [{ script: freshOutput!.script, satoshis: fresh.dueSatoshis }])).toHex(),
      );
      await watchOnce(stack.orders, state);
      expect((await get(fresh)).status).toBe('paid');
      expect((await get(young)).status).toBe('open');
    } finally {
      stack.advance(-121);
    }
  });

  it('after a block the watcher confirms every paid order, however many: the newest past a page of older ones', async () => {
    const org = await stack.walletOrg();
    const paid: Order[] = [];
    for (let i = 0; i < 3; i++) {
      const order = await create(org);
      await pay(order, (await payment(order, order.dueSatoshis)).toHex());
      paid.push(order);
    }
    await mineBlocks(stack.chain.url, 1);
    // Pages of two: every other test's paid orders, older, come first.
    await watchOnce(stack.orders, watcherState(), 2);
    expect(await Promise.all(paid.map(async (order) => (await get(order)).status))).toEqual(['confirmed', 'confirmed', 'confirmed']);
  });

  it('the watcher looks at an order cancelled over a minute ago for a stray payment once a minute, and keeps what it finds for a refund', async () => {
    const org = await stack.walletOrg();
    const order = await create(org);
    const [output] = await scriptOf(order);
    await stack.client.cancelOrder({ org, orderNumber: order.orderNumber });
    const state = watcherState();
    stack.advance(61);
    try {
      await watchOnce(stack.orders, state);
      const stray = await paying(await fundedCustomer(stack.chain), [{ script: output!.script, satoshis: 5_000n }]);
      await broadcast(stray.toHex());
      // Within the minute the watcher reads the orders still taking payment and those settled otherwise since.
      await watchOnce(stack.orders, state);
      expect((await get(order)).payments).toEqual([]);
      stack.advance(61);
      await watchOnce(stack.orders, state);
      const kept = await get(order);
      expect(kept).toMatchObject({ status: 'cancelled', paidSatoshis: 5_000n });
      expect(kept.payments.map((payment) => payment.txid)).toEqual([stray.id('hex')]);
      expect(kept.flags).toContain('refund_due');
    } finally {
      stack.advance(-122);
    }
  });
});

describe('a BIP270 payment being broadcast holds its order', () => {
  /** Claims the order for another transaction, as a BIP270 payment does while p2p broadcasts it. */
  async function claimedByAnother(order: Order) {
    const { id } = (await stack.orders.orders.byNumber(order.orderNumber))!;
    expect(await stack.orders.orders.claimPayment(id, 'cd'.repeat(32), new Date(), new Date(0))).toBe(true);
  }
  const known = async (txid: string) => (await fetch(`${stack.chain.url}/v1/tx/${txid}`)).status === 200;

  it('another BIP270 payment and a cancel are 409 and nothing is broadcast; a payment already on chain is still recorded', async () => {
    const org = await stack.walletOrg();
    const order = await create(org);
    await claimedByAnother(order);
    const other = await payment(order, order.dueSatoshis);
    const refused = await failure(pay(order, other.toHex()));
    expect(refused.code).toBe('failed_precondition');
    expect(refused.message).toMatch(/being paid/);
    expect(await known(other.id('hex'))).toBe(false);
    expect((await failure(stack.client.cancelOrder({ org, orderNumber: order.orderNumber }))).code).toBe('failed_precondition');

    // The customer paid the address from another wallet: staff confirm it (the watcher settles it alike).
    const [output] = await scriptOf(order);
    const direct = await paying(await fundedCustomer(stack.chain), [{ script: output!.script, satoshis: order.dueSatoshis }]);
    await broadcast(direct.toHex());
    const confirmed = await stack.client.confirmOrder({
      org,
      orderNumber: order.orderNumber,
      txid: direct.id('hex'),
      publicUrl: PUBLIC_URL,
    });
    expect(confirmed.order).toMatchObject({ status: 'paid', paidSatoshis: order.satoshis, flags: [] });
  });

  it('a claim its process left behind holds the order 2 minutes, then another payment pays it', async () => {
    const order = await create(await stack.walletOrg());
    await claimedByAnother(order);
    const tx = await payment(order, order.dueSatoshis);
    expect((await failure(pay(order, tx.toHex()))).code).toBe('failed_precondition');
    stack.advance(121);
    try {
      expect((await pay(order, tx.toHex())).error).toBe(0);
      expect(await get(order)).toMatchObject({ status: 'paid', payments: [expect.objectContaining({ txid: tx.id('hex') })] });
    } finally {
      stack.advance(-121);
    }
  });
});

describe('expiry, staff and cancellation', () => {
  it('an expired order refuses BIP270; a partial payment is kept and flagged; staff confirming the rest pays it late', async () => {
    const org = await stack.walletOrg();
    const order = await create(org);
    const [output] = await scriptOf(order);
    const partial = await paying(await fundedCustomer(stack.chain), [{ script: output!.script, satoshis: 1_000n }]);
    await broadcast(partial.toHex());
    const whole = await payment(order, order.dueSatoshis);
    stack.advance(901);
    try {
      expect((await failure(pay(order, whole.toHex()))).code).toBe('payment_expired');
      expect((await failure(scriptOf(order))).code).toBe('payment_expired');
      await watchOnce(stack.orders);
      const expired = await get(order);
      expect(expired).toMatchObject({ status: 'expired', paidSatoshis: 1_000n, dueSatoshis: 0n });
      expect(expired.flags).toContain('paid_partial');

      const rest = await paying(await fundedCustomer(stack.chain), [{ script: output!.script, satoshis: order.satoshis - 1_000n }]);
      await broadcast(rest.toHex());
      const confirmed = (
        await stack.client.confirmOrder({ org, orderNumber: order.orderNumber, txid: rest.id('hex'), publicUrl: PUBLIC_URL })
      ).order!;
      expect(confirmed).toMatchObject({ status: 'paid', paidSatoshis: order.satoshis, flags: ['paid_late'] });
      expect(confirmed.payments.map((payment) => [payment.via, payment.late])).toEqual([
        ['address', true],
        ['staff', true],
      ]);
    } finally {
      stack.advance(-901);
    }
  });

  it("cancels an unpaid order once; refuses to cancel a paid one; another organisation's staff can neither cancel nor confirm", async () => {
    const org = await stack.walletOrg();
    const order = await create(org);
    const stranger = await stack.walletOrg();
    expect((await failure(stack.client.cancelOrder({ org: stranger, orderNumber: order.orderNumber }))).code).toBe('not_found');
    const txid = 'ab'.repeat(32);
    expect((await failure(stack.client.confirmOrder({ org: stranger, orderNumber: order.orderNumber, txid }))).code).toBe('not_found');
    const cancelled = (await stack.client.cancelOrder({ org, orderNumber: order.orderNumber, publicUrl: PUBLIC_URL })).order!;
    expect(cancelled.status).toBe('cancelled');
    expect(cancelled.dueSatoshis).toBe(0n);
    expect((await stack.client.cancelOrder({ org, orderNumber: order.orderNumber })).order!.cancelledAt).toBe(cancelled.cancelledAt);
    expect((await failure(scriptOf(order))).code).toBe('failed_precondition');

    const paidOrder = await create(org);
    await pay(paidOrder, (await payment(paidOrder, paidOrder.dueSatoshis)).toHex());
    expect((await failure(stack.client.cancelOrder({ org, orderNumber: paidOrder.orderNumber }))).code).toBe('failed_precondition');
  });

  it('answers not_found for a number no order has, and validation_failed for one that cannot be a number', async () => {
    expect((await failure(stack.client.getOrder({ orderNumber: '0000000000' }))).code).toBe('not_found');
    expect((await failure(stack.client.getOrder({ orderNumber: "1' OR 1=1" }))).code).toBe('validation_failed');
  });
});

describe('ListOrders', () => {
  it("lists the organisation's orders for its staff, newest first, by status or the start of a number, a page at a time", async () => {
    const org = await stack.walletOrg();
    const [first, second, third] = [await create(org), await create(org), await create(org)];
    await create(await stack.walletOrg());
    await stack.client.cancelOrder({ org, orderNumber: second.orderNumber, publicUrl: PUBLIC_URL });
    const list = (fields: Partial<Parameters<typeof stack.client.listOrders>[0]> = {}) =>
      stack.client.listOrders({ org, publicUrl: PUBLIC_URL, ...fields });
    expect((await list()).orders.map((order) => [order.orderNumber, order.status])).toEqual([
      [third.orderNumber, 'open'],
      [second.orderNumber, 'cancelled'],
      [first.orderNumber, 'open'],
    ]);
    expect((await list({ status: 'cancelled' })).orders.map((order) => order.orderNumber)).toEqual([second.orderNumber]);
    const typed = first.orderNumber.slice(0, 6).toLowerCase();
    expect((await list({ search: typed })).orders.map((order) => order.orderNumber)).toContain(first.orderNumber);
    // The whole order, as GetOrder answers it: its lines and links.
    expect((await list({ search: third.orderNumber })).orders).toEqual([await get(third)]);
    const page = await list({ limit: 2 });
    expect(page.orders).toHaveLength(2);
    const rest = await list({ limit: 2, cursor: page.nextCursor });
    expect([rest.orders.map((order) => order.orderNumber), rest.nextCursor]).toEqual([[first.orderNumber], '']);
    for (const [fields, field] of [
      [{ status: 'refunded' }, 'status'],
      [{ search: 'not a number' }, 'search'],
      [{ search: 'ILOU' }, 'search'],
      [{ limit: 101 }, 'limit'],
      [{ cursor: 'x' }, 'cursor'],
    ] as const)
      expect((await failure(list(fields))).details?.field).toBe(field);
  });
});

describe('WatchOrder and the QR', () => {
  it('streams the order now and again when it is paid', async () => {
    const order = await create(await stack.walletOrg());
    const seen: string[] = [];
    const watching = (async () => {
      for await (const message of stack.client.watchOrder({ orderNumber: order.orderNumber, publicUrl: PUBLIC_URL })) {
        seen.push(message.order!.status);
        if (message.order!.status === 'paid') break;
      }
    })();
    await eventually(() => expect(seen).toEqual(['open']));
    await pay(order, (await payment(order, order.dueSatoshis)).toHex());
    await watching;
    expect(seen).toEqual(['open', 'paid']);
  });

  it('draws the BIP21 URI as SVG and PNG', async () => {
    const order = await create(await stack.walletOrg());
    const svg = await stack.client.getOrderQr({ orderNumber: order.orderNumber, publicUrl: PUBLIC_URL, format: 'svg' });
    expect(svg.contentType).toBe('image/svg+xml');
    expect(Buffer.from(svg.body).toString('utf8')).toMatch(/^<svg[^>]*>.*<\/svg>\s*$/s);
    const png = await stack.client.getOrderQr({ orderNumber: order.orderNumber, publicUrl: PUBLIC_URL, format: 'png' });
    expect(png.contentType).toBe('image/png');
    expect(Buffer.from(png.body).subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
    expect((await failure(stack.client.getOrderQr({ orderNumber: order.orderNumber, format: 'gif' }))).code).toBe('validation_failed');
  });
});

/** Broadcasts a transaction to the local chain, as a customer's wallet would without BIP270. */
async function broadcast(hex: string) {
  const response = await fetch(`${stack.chain.url}/v1/tx`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ rawTx: hex }),
  });
  if (!response.ok) throw new Error(`broadcast: ${response.status} ${await response.text()}`);
}

describe('orders of items with modifiers, tax treatments and price types', () => {
  it('adds modifiers to the unit price, taxes each line by its treatment, and takes a chosen price within the item type', async () => {
    const org = await stack.walletOrg({ jurisdiction: 'US-CA' });
    const latte = (
      await stack.client.createItem(
        newItem(org, {
          name: 'Latte',
          priceCents: 500n,
          taxTreatment: 'reduced',
          taxRate: '0.05',
          modifiers: [
            { name: 'Large', priceCents: 50n, group: 'Size' },
            { name: 'Small', priceCents: 0n, group: 'Size' },
            { name: 'Oat milk', priceCents: 60n, group: '' },
          ] as never,
        }),
      )
    ).item!;
    const stamps = (await stack.client.createItem(newItem(org, { name: 'Stamps', priceCents: 300n, taxTreatment: 'exempt' }))).item!;
    const donation = (await stack.client.createItem(newItem(org, { name: 'Donation', priceCents: 500n, priceType: 'minimum' }))).item!;
    const [large, small, oat] = latte.modifiers;
    const order = await create(org, {
      lines: [
        { itemId: latte.id, quantity: 2n, modifiers: [{ modifierId: large!.id }, { modifierId: oat!.id }] } as never,
        { itemId: stamps.id, quantity: 1n } as never,
        { itemId: donation.id, quantity: 1n, chosenPriceMinor: 800n } as never,
      ],
    });
    const [latteLine, stampsLine, donationLine] = order.lines;
    expect(latteLine).toMatchObject({ unitPriceMinor: 610n, taxTreatment: 'reduced', taxRate: '0.05', taxMinor: 61n, totalMinor: 1281n });
    expect(latteLine!.modifiers.map((modifier) => [modifier.name, modifier.priceMinor])).toEqual([
      ['Large', 50n],
      ['Oat milk', 60n],
    ]);
    expect(stampsLine).toMatchObject({ taxTreatment: 'exempt', taxRate: '0', taxMinor: 0n, totalMinor: 300n });
    expect(donationLine).toMatchObject({ unitPriceMinor: 800n, taxTreatment: 'standard' });
    expect(donationLine!.taxRate).toMatch(/^0\.\d+$/);
    // The receipt commits to each line's name with its modifiers.
    const request = await stack.client.getPaymentRequest({ orderNumber: order.orderNumber, publicUrl: PUBLIC_URL });
    const linesHash = hashOrderLines([
      { item_id: latte.id, name: 'Latte (Large, Oat milk)', quantity: 2, unit_price_minor: 610, currency: 'USD' },
      { item_id: stamps.id, name: 'Stamps', quantity: 1, unit_price_minor: 300, currency: 'USD' },
      { item_id: donation.id, name: 'Donation', quantity: 1, unit_price_minor: 800, currency: 'USD' },
    ]);
    expect(request.outputs[1]!.script).toBe(
      receiptScript({ merchant: `${org.handle}@pay.example.com`, reference: order.orderNumber, linesHash }).toHex(),
    );

    const refusals: Array<[object, string]> = [
      [{ itemId: latte.id, quantity: 1n, modifiers: [{ modifierId: large!.id }, { modifierId: small!.id }] }, 'lines[0].modifiers'],
      [{ itemId: latte.id, quantity: 1n, modifiers: [{ modifierId: oat!.id }, { modifierId: oat!.id }] }, 'lines[0].modifiers'],
      [{ itemId: stamps.id, quantity: 1n, modifiers: [{ modifierId: oat!.id }] }, 'lines[0].modifiers'],
      [{ itemId: stamps.id, quantity: 1n, chosenPriceMinor: 400n }, 'lines[0].chosen_price_minor'],
      [{ itemId: donation.id, quantity: 1n, chosenPriceMinor: 499n }, 'lines[0].chosen_price_minor'],
    ];
    for (const [line, field] of refusals) {
      const refused = await failure(stack.client.createOrder(orderRequest(org, { lines: [line as never] })));
      expect(refused).toMatchObject({ code: 'validation_failed', details: { field } });
    }
  });

  it('answers a new order as every read of it answers it, lines and modifiers included; a number already taken draws another', async () => {
    const org = await stack.walletOrg({ jurisdiction: 'US-CA' });
    const modifiers = [{ name: 'Large «grande»', priceCents: 50n, group: 'Size' }] as never;
    const latte = (await stack.client.createItem(newItem(org, { name: 'Latte', priceCents: 500n, modifiers }))).item!;
    const order = await create(org, {
      lines: [
        { itemId: latte.id, quantity: 3n, modifiers: [{ modifierId: latte.modifiers[0]!.id }] } as never,
        { name: 'Café crème\u00a0✓', quantity: 10_000n, unitPriceMinor: 10n ** 7n } as never,
      ],
      tipMinor: 75n,
      note: 'Table 4 — by the window',
    });
    expect(order).toEqual(await get(order));

    // The repository itself: what create answers is what a read answers, to the column.
    const { id: _, orderNumber, lines, payments: __, refunds: ___, ...row } = (await stack.orders.orders.byNumber(order.orderNumber))!;
    const numbers = [orderNumber, 'ZZZZZZZZZ0'];
    const again = await stack.orders.orders.create(
      { ...row, address: 'another', lines: lines.map(({ id: _id, orderId: _order, ...line }) => line) },
      () => numbers.shift()!,
    );
    expect(again.orderNumber).toBe('ZZZZZZZZZ0');
    expect(again).toEqual(await stack.orders.orders.byNumber('ZZZZZZZZZ0'));
    expect(again.lines.map((line) => [line.name, line.quantity, line.unitPriceMinor, line.modifiers])).toEqual([
      ['Latte', 3n, 550n, [{ modifier_id: latte.modifiers[0]!.id, name: 'Large «grande»', price_minor: '50' }]],
      ['Café crème\u00a0✓', 10_000n, 10n ** 7n, []],
    ]);
  });

  it('refuses an order whose total passes the largest amount, however its lines reach it', async () => {
    const org = await stack.walletOrg();
    const top = { name: 'Catering', quantity: 10_000n, unitPriceMinor: 10n ** 12n };
    for (const lines of [[{ ...top, quantity: 2n }], Array.from({ length: 100 }, () => top)]) {
      const refused = await failure(stack.client.createOrder(orderRequest(org, { lines: lines as never })));
      expect(refused).toMatchObject({ code: 'validation_failed', details: { field: 'lines' } });
    }
    expect((await create(org, { lines: [{ ...top, quantity: 1n } as never] })).totalMinor).toBe(10n ** 12n);
  });

  it('refuses more units than a tracked item has', async () => {
    const org = await stack.walletOrg();
    const cake = (await stack.client.createItem(newItem(org, { name: 'Last cake', priceCents: 400n, inventory: 1n }))).item!;
    expect((await create(org, { lines: [{ itemId: cake.id, quantity: 1n } as never] })).lines[0]!.quantity).toBe(1n);
    const refused = await failure(stack.client.createOrder(orderRequest(org, { lines: [{ itemId: cake.id, quantity: 2n } as never] })));
    expect(refused).toMatchObject({ code: 'validation_failed', details: { field: 'lines[0].quantity' } });
  });

  it('takes paid units from the stock once, whatever pays the order again; an unpaid order takes nothing', async () => {
    const org = await stack.walletOrg();
    const cake = (await stack.client.createItem(newItem(org, { name: 'Lemon cake', priceCents: 400n, inventory: 5n }))).item!;
    const stock = async () =>
      (await stack.client.listItems({ org, limit: 10, cursor: '' })).items.find((item) => item.id === cake.id)!.inventory;
    const order = await create(org, { lines: [{ itemId: cake.id, quantity: 2n } as never] });
    await create(org, { lines: [{ itemId: cake.id, quantity: 3n } as never] }); // open, never paid
    expect(await stock()).toBe(5n);
    const tx = await payment(order, order.dueSatoshis);
    expect((await pay(order, tx.toHex())).error).toBe(0);
    expect((await pay(order, tx.toHex())).error).toBe(0); // the wallet's retry
    await eventually(async () => expect(await stock()).toBe(3n));
    expect(await stock()).toBe(3n);
  });
});
