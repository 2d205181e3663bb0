import { PrivateKey } from '@bsv/sdk';
import { scriptOfAddress } from '@ctk/chain';
import { PaymentEventType } from '@ctk/proto/ctk/events/v1/payment_event';
import type { Order, OrderRefund } from '@ctk/proto/ctk/pos/v1/pos';
import type { OrgRef } from '@ctk/proto/ctk/common/v1/common';
import { eventually } from '@ctk/shared/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withParts } from '../src/data/order-repository.js';
import { refundFigures, type RefundFigures } from '../src/refunds/refund-figures.js';
import { failure, fundedCustomer, orderRequest, paying, PUBLIC_URL, startOrderStack, type OrderStack } from './order-stack.js';

describe('refundFigures', () => {
  // The order of the contract's example: 1843 paid, 110 tax, 226 tip, 36,860,000 satoshis.
  const base = { amountMinor: 1843n, taxMinor: 110n, tipMinor: 226n, satoshis: 36_860_000n };
  const lines = [
    { quantity: 2n, totalMinor: 1207n, refundedQuantity: 0n },
    { quantity: 1n, totalMinor: 410n, refundedQuantity: 0n },
  ];
  const sum = (refunds: RefundFigures[]) =>
    refunds.reduce(
      (total, r) => ({
        amountMinor: total.amountMinor + r.amountMinor,
        taxMinor: total.taxMinor + r.taxMinor,
        tipMinor: total.tipMinor + r.tipMinor,
        satoshis: total.satoshis + r.satoshis,
      }),
      { amountMinor: 0n, taxMinor: 0n, tipMinor: 0n, satoshis: 0n },
    );

  it('takes tax, tip and satoshis in proportion, rounded down, and the refunds of a whole order add up to exactly what it took', () => {
    const first = refundFigures(base, lines, [], { kind: 'amount', amountMinor: 333n });
    // 333/1843 of 110 = 19.87 -> 19; of 226 = 40.8 -> 40; of 36,860,000 = 6,660,000.
    expect(first).toEqual({ amountMinor: 333n, taxMinor: 19n, tipMinor: 40n, satoshis: 6_660_000n, lines: [] });
    const second = refundFigures(base, lines, [first], { kind: 'amount', amountMinor: 333n });
    // Cumulatively 666/1843: 39 tax, 81 tip; this one takes the difference.
    expect(second).toMatchObject({ taxMinor: 20n, tipMinor: 41n });
    const rest = refundFigures(base, lines, [first, second], { kind: 'whole' });
    expect(rest.amountMinor).toBe(1843n - 666n);
    expect(sum([first, second, rest])).toEqual(base);
  });

  it('gives back lines at their totals in proportion to their units, with their share of the tip; every line is the whole order', () => {
    const one = refundFigures(base, lines, [], { kind: 'lines', lines: [{ line: 0, quantity: 1n }] });
    // Half of line 0's 1207 = 603, and 603/1617 of the 226 tip = 84.
    expect(one).toMatchObject({ amountMinor: 603n + 84n, lines: [{ line: 0, quantity: 1n }] });
    const afterOne = lines.map((line, index) => (index === 0 ? { ...line, refundedQuantity: 1n } : line));
    const rest = refundFigures(base, afterOne, [one], {
      kind: 'lines',
      lines: [
        { line: 0, quantity: undefined },
        { line: 1, quantity: 1n },
      ],
    });
    expect(rest.lines).toEqual([
      { line: 0, quantity: 1n },
      { line: 1, quantity: 1n },
    ]);
    expect(sum([one, rest])).toEqual(base);
  });

  it('refuses more than is left with refund_exceeds_paid and what is left; lines not of the order, or refunded, likewise', () => {
    const half = refundFigures(base, lines, [], { kind: 'amount', amountMinor: 900n });
    expect(() => refundFigures(base, lines, [half], { kind: 'amount', amountMinor: 944n })).toThrow(
      expect.objectContaining({ code: 'refund_exceeds_paid', details: { refundable_minor: '943' } }),
    );
    expect(() => refundFigures(base, lines, [], { kind: 'lines', lines: [{ line: 2, quantity: 1n }] })).toThrow(
      expect.objectContaining({ code: 'validation_failed', details: { field: 'lines[0].line' } }),
    );
    expect(() => refundFigures(base, lines, [], { kind: 'lines', lines: [{ line: 0, quantity: 3n }] })).toThrow(
      expect.objectContaining({ code: 'validation_failed', details: { field: 'lines[0].quantity' } }),
    );
    const all = lines.map((line) => ({ ...line, refundedQuantity: line.quantity }));
    expect(() => refundFigures(base, all, [base], { kind: 'whole' })).toThrow(expect.objectContaining({ code: 'refund_exceeds_paid' }));
  });
});

describe('refunds of a paid order', () => {
  let stack: OrderStack;
  beforeAll(async () => {
    stack = await startOrderStack();
  }, 60_000);
  afterAll(() => stack?.close());

  const customer = PrivateKey.fromRandom();
  const customerAddress = customer.toAddress('testnet');
  const get = async (order: Order) => (await stack.client.getOrder({ orderNumber: order.orderNumber, publicUrl: PUBLIC_URL })).order!;

  /** A paid order of two lines and a tip (1000 + 450, 10% tip = 145, at 100 satoshis per cent), its payment naming `refundTo`. */
  async function paidOrder(org: OrgRef, refundTo = customerAddress): Promise<Order> {
    const order = (
      await stack.client.createOrder(
        orderRequest(org, {
          lines: [
            { name: 'Beans', quantity: 2n, unitPriceMinor: 500n } as never,
            { name: 'Flat white', quantity: 1n, unitPriceMinor: 450n } as never,
          ],
          tipBasisPoints: 1000,
        }),
      )
    ).order!;
    const [output, receipt] = (await stack.client.getPaymentRequest({ orderNumber: order.orderNumber, publicUrl: PUBLIC_URL })).outputs;
    const tx = await paying(await fundedCustomer(stack.chain), [
      { script: output!.script, satoshis: output!.amount },
      { script: receipt!.script, satoshis: 0 },
    ]);
    await stack.client.payOrder({ orderNumber: order.orderNumber, transaction: tx.toHex(), refundTo });
    return get(order);
  }
  const refund = async (org: OrgRef, order: Order, fields: Record<string, unknown>) =>
    (await stack.client.createRefund({ org, orderNumber: order.orderNumber, publicUrl: PUBLIC_URL, ...fields })).refund!;
  /** The merchant's wallet: pays the refund's payment request from coins of its own, and posts the Payment. */
  async function payRefund(refunded: OrderRefund, satoshis?: bigint) {
    const [output] =
      refunded.status === 'pending'
        ? (await stack.client.getRefundPaymentRequest({ refundId: refunded.id, publicUrl: PUBLIC_URL })).outputs
        : [{ script: scriptOfAddress(refunded.address, 'local', 'address'), amount: refunded.satoshis }];
    const tx = await paying(await fundedCustomer(stack.chain), [{ script: output!.script, satoshis: satoshis ?? output!.amount }]);
    return { tx, ack: () => stack.client.payRefund({ refundId: refunded.id, transaction: tx.toHex() }) };
  }

  it('refunds a line to the address the payment gave: paid by the merchant, the order shows it, and payment.refunded carries its tax and tip', async () => {
    const org = await stack.walletOrg();
    const order = await paidOrder(org);
    expect(order).toMatchObject({
      status: 'paid',
      totalMinor: 1595n,
      tipMinor: 145n,
      paidSatoshis: 159_500n,
      refunds: [],
      refundedMinor: 0n,
    });
    const created = await refund(org, order, { lines: [{ line: 1, quantity: 1n }], reason: 'Spilt' });
    // The flat white's 450 and 450/1450 of the 145 tip (45); satoshis 495/1595 of 159,500.
    expect(created).toMatchObject({
      status: 'pending',
      amountMinor: 495n,
      taxMinor: 0n,
      tipMinor: 45n,
      satoshis: 49_500n,
      address: customerAddress,
      lines: [{ line: 1, quantity: 1n }],
      reason: 'Spilt',
      paymentRequestUrl: `${PUBLIC_URL}/api/pos/refunds/${created.id}/payment-request`,
      paymentUri: `pay:?r=${encodeURIComponent(`${PUBLIC_URL}/api/pos/refunds/${created.id}/payment-request`)}`,
    });
    const request = await stack.client.getRefundPaymentRequest({ refundId: created.id, publicUrl: PUBLIC_URL });
    expect(request).toMatchObject({ network: 'bitcoin-sv', paymentUrl: `${PUBLIC_URL}/api/pos/refunds/${created.id}/payment` });
    expect(request.outputs).toEqual([
      { script: scriptOfAddress(customerAddress, 'local', 'address'), amount: 49_500n, description: expect.any(String) },
    ]);
    expect((await get(order)).refundedMinor).toBe(495n);

    // Too little to the customer's output is refused, and nothing is recorded.
    const short = await payRefund(created, 49_499n);
    expect((await failure(short.ack())).code).toBe('payment_underpaid');
    const { tx, ack } = await payRefund(created);
    expect(await ack()).toMatchObject({ error: 0 });
    // The same transaction again (a wallet's retry) is acknowledged; another is refused.
    expect(await ack()).toMatchObject({ error: 0 });
    const another = await payRefund({ ...created, status: 'paid' });
    expect((await failure(another.ack())).code).toBe('failed_precondition');

    const shown = await get(order);
    expect(shown.refunds).toEqual([expect.objectContaining({ id: created.id, status: 'paid', txid: tx.id('hex') })]);
    // A read of the order (one statement without Prisma's client) is Prisma's read, its parts to the field.
    const read = await stack.orders.prisma.order.findUnique({ where: { orderNumber: order.orderNumber }, include: withParts });
    expect(read).toMatchObject({ lines: [{}, {}], payments: [{ refundTo: customerAddress }], refunds: [{ status: 'paid' }] });
    expect(await stack.orders.orders.byNumber(order.orderNumber)).toEqual(read);
    expect(await stack.orders.orders.byId(read!.id)).toEqual(read);
    expect(shown).toMatchObject({ refundedMinor: 495n, refundedPaidMinor: 495n });
    await eventually(() =>
      expect(stack.events.filter((event) => event.id === `pos.refund.${created.id}`)).toEqual([
        expect.objectContaining({
          type: PaymentEventType.PAYMENT_EVENT_TYPE_PAYMENT_REFUNDED,
          sourceReference: order.orderNumber,
          amountMinor: 495n,
          taxMinor: 0n,
          tipMinor: 45n,
          satoshis: 49_500n,
          txid: tx.id('hex'),
        }),
      ]),
    );
  });

  it('refunds the rest of the order to the address named, to exactly what was paid, and refuses any more with refund_exceeds_paid', async () => {
    const org = await stack.walletOrg({ jurisdiction: 'US-CA' });
    const order = await paidOrder(org);
    const part = await refund(org, order, { amountMinor: 333n });
    const other = PrivateKey.fromRandom().toAddress('testnet');
    const rest = await refund(org, order, { whole: true, refundTo: other });
    expect(rest.address).toBe(other);
    expect(part.amountMinor + rest.amountMinor).toBe(order.totalMinor);
    expect(part.taxMinor + rest.taxMinor).toBe(order.taxMinor);
    expect(part.tipMinor + rest.tipMinor).toBe(order.tipMinor);
    expect(part.satoshis + rest.satoshis).toBe(order.paidSatoshis);
    const refused = await failure(refund(org, order, { amountMinor: 1n }));
    expect(refused).toMatchObject({ code: 'refund_exceeds_paid', details: { refundable_minor: '0' } });
    expect(refused.message).toMatch(/nothing is left to refund/);
  });

  it('refuses clearly: nothing or several things asked, no address, a bad one, an unpaid order, another organisation', async () => {
    const org = await stack.walletOrg();
    const order = await paidOrder(org, '');
    expect(await failure(refund(org, order, {}))).toMatchObject({ code: 'validation_failed', details: { field: 'whole' } });
    expect(await failure(refund(org, order, { whole: true, amountMinor: 5n }))).toMatchObject({ code: 'validation_failed' });
    // The payment gave no refund address.
    expect(await failure(refund(org, order, { whole: true }))).toMatchObject({
      code: 'validation_failed',
      details: { field: 'refund_to' },
    });
    expect(await failure(refund(org, order, { whole: true, refundTo: '1BoatSLRHtKNngkdXEeobR76b53LETtpyT' }))).toMatchObject({
      code: 'validation_failed',
      details: { field: 'refund_to' },
    });
    expect(await failure(refund(org, order, { whole: true, refundTo: customerAddress, reason: 'a\u0000b' }))).toMatchObject({
      code: 'validation_failed',
    });
    expect(await failure(refund(org, order, { amountMinor: 5n * 10n ** 18n, refundTo: customerAddress }))).toMatchObject({
      code: 'validation_failed',
    });
    const elsewhere = await stack.walletOrg();
    expect((await failure(refund(elsewhere, order, { whole: true, refundTo: customerAddress }))).code).toBe('not_found');
    const open = (await stack.client.createOrder(orderRequest(org))).order!;
    expect(await failure(refund(org, open, { whole: true, refundTo: customerAddress }))).toMatchObject({
      code: 'failed_precondition',
      details: { reason: 'not_paid' },
    });
  });

  it('releases a cancelled refund, and one that expired unpaid; an expired one takes no payment', async () => {
    const org = await stack.walletOrg();
    const order = await paidOrder(org);
    const first = await refund(org, order, { whole: true });
    expect((await failure(refund(org, order, { amountMinor: 1n }))).code).toBe('refund_exceeds_paid');
    const cancelled = (await stack.client.cancelRefund({ org, refundId: first.id, publicUrl: PUBLIC_URL })).refund!;
    expect(cancelled).toMatchObject({ status: 'cancelled', cancelledAt: expect.any(String) });
    expect((await failure(stack.client.getRefundPaymentRequest({ refundId: first.id, publicUrl: PUBLIC_URL }))).code).toBe(
      'failed_precondition',
    );
    const second = await refund(org, order, { whole: true });
    expect(second.amountMinor).toBe(order.totalMinor);
    const late = await payRefund(second);
    stack.advance(16 * 60);
    expect((await get(order)).refunds.map((r) => r.status)).toEqual(['cancelled', 'expired']);
    expect((await failure(late.ack())).code).toBe('payment_expired');
    const third = await refund(org, order, { whole: true });
    expect(third.amountMinor).toBe(order.totalMinor);
    // Another organisation cannot cancel it.
    expect(
      (await failure(stack.client.cancelRefund({ org: await stack.walletOrg(), refundId: third.id, publicUrl: PUBLIC_URL }))).code,
    ).toBe('not_found');
  });

  it('never refunds more than the order took under 20 refunds at once', { tags: ['concurrency'] }, async () => {
    const org = await stack.walletOrg();
    const order = await paidOrder(org);
    // 1595 paid: 20 refunds of 300 at once, of which 5 fit (1500).
    const results = await Promise.allSettled(Array.from({ length: 20 }, () => refund(org, order, { amountMinor: 300n })));
    const made = results.filter((result) => result.status === 'fulfilled');
    const refused = results.flatMap((result) => (result.status === 'rejected' ? [result.reason as { code: string }] : []));
    expect(made).toHaveLength(5);
    expect(refused.map((error) => error.code)).toEqual(Array(15).fill('refund_exceeds_paid'));
    const shown = await get(order);
    expect(shown.refundedMinor).toBe(1500n);
    expect(shown.refunds.reduce((total, r) => total + r.satoshis, 0n)).toBeLessThanOrEqual(order.paidSatoshis);
  });
});
