import { PrivateKey } from '@bsv/sdk';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, bearer, type Onboarded } from './harness.js';
import { startOrderStack } from './order-harness.js';
import { expectError } from './support.js';

let stack: Awaited<ReturnType<typeof startOrderStack>>;
beforeAll(async () => {
  stack = await startOrderStack();
}, 180_000);
afterAll(() => stack?.close());

const inject = (options: InjectOptions) => stack.gateway.app.inject(options);
const LINES = [
  { name: 'Flat white', quantity: 2, unit_price_minor: 300 },
  { name: 'Croissant', quantity: 1, unit_price_minor: 300 },
];
const customerAddress = PrivateKey.fromRandom().toAddress('testnet');

/** A counter order of 900 and a 100 tip (1000, 100,000 satoshis) paid by the customer's wallet over BIP270, giving `refundTo`. */
async function paidOrder(shop: Onboarded, refundTo = customerAddress) {
  const order = (
    await inject({
      method: 'POST',
      url: '/api/pos/orders',
      headers: bearer(shop.key),
      payload: { org_handle: shop.handle, lines: LINES, tip_minor: 100 },
    })
  ).json();
  const request = (await inject({ method: 'GET', url: `/api/pos/orders/${order.order_number}/payment-request` })).json();
  const tx = await stack.paying(
    request.outputs.map((output: { script: string; amount: number }) => ({ script: output.script, satoshis: output.amount })),
  );
  const ack = await inject({
    method: 'POST',
    url: `/api/pos/orders/${order.order_number}/payment`,
    headers: { 'content-type': 'application/bitcoinsv-payment' },
    payload: JSON.stringify({ transaction: tx.toHex(), merchantData: request.merchantData, refundTo }),
  });
  expect(ack.statusCode, ack.body).toBe(200);
  return order as { order_number: string; total_minor: number; satoshis: number };
}

const refund = (key: string, orderNumber: string, payload: object, headers: Record<string, string> = {}) =>
  inject({ method: 'POST', url: `/api/pos/orders/${orderNumber}/refunds`, headers: { ...bearer(key), ...headers }, payload });

describe('refunds through the gateway and pos', () => {
  let cafe: Onboarded;
  let staffKey: string;
  beforeAll(async () => {
    cafe = await stack.walletOrg('Refunding Cafe');
    staffKey = (await addMember(stack.gateway, cafe, 'staff')).key;
  });

  it('an admin refunds a line; the merchant pays its payment request by BIP270; the order shows it paid', async () => {
    const order = await paidOrder(cafe);
    const made = await refund(
      cafe.key,
      order.order_number,
      { org_handle: cafe.handle, lines: [{ line: 0, quantity: 1 }], reason: 'Cold' },
      {
        'idempotency-key': `refund-${order.order_number}`,
      },
    );
    expect(made.statusCode, made.body).toBe(201);
    const body = made.json();
    // Half of line 0 (300 of 600) and 300/900 of the 100 tip (33): 333, 33,300 satoshis.
    expect(body).toMatchObject({
      order_number: order.order_number,
      status: 'pending',
      currency: 'USD',
      amount_minor: 333,
      tax_minor: 0,
      tip_minor: 33,
      satoshis: 33_300,
      address: customerAddress,
      lines: [{ line: 0, quantity: 1 }],
      reason: 'Cold',
      paid_at: null,
      txid: null,
    });
    expect(new URL(body.payment_request_url).pathname).toBe(`/api/pos/refunds/${body.id}/payment-request`);
    expect(body.payment_uri).toBe(`pay:?r=${encodeURIComponent(body.payment_request_url)}`);
    // The same Idempotency-Key answers the same refund, and reserves nothing more.
    const again = await refund(
      cafe.key,
      order.order_number,
      { org_handle: cafe.handle, lines: [{ line: 0, quantity: 1 }], reason: 'Cold' },
      {
        'idempotency-key': `refund-${order.order_number}`,
      },
    );
    expect(again.json().id).toBe(body.id);

    const request = (await inject({ method: 'GET', url: new URL(body.payment_request_url).pathname })).json();
    expect(request.outputs).toEqual([expect.objectContaining({ amount: 33_300 })]);
    const tx = await stack.paying([{ script: request.outputs[0].script, satoshis: 33_300 }]);
    const ack = await inject({
      method: 'POST',
      url: new URL(request.paymentUrl).pathname,
      headers: { 'content-type': 'application/bitcoinsv-payment' },
      payload: JSON.stringify({ transaction: tx.toHex(), merchantData: request.merchantData }),
    });
    expect(ack.statusCode, ack.body).toBe(200);
    expect(ack.headers['content-type']).toMatch(/^application\/bitcoinsv-paymentack/);
    expect(ack.json()).toMatchObject({ error: 0 });
    expect(await stack.onChain(tx.id('hex'))).toBe(true);

    const shown = (await inject({ method: 'GET', url: `/api/pos/orders/${order.order_number}` })).json();
    expect(shown).toMatchObject({
      status: 'paid',
      refunded_minor: 333,
      refunded_paid_minor: 333,
      refunds: [{ id: body.id, status: 'paid', amount_minor: 333, txid: tx.id('hex') }],
    });
    // Read from another origin than CTK_PUBLIC_URL, the refund's links are under the origin reached.
    const elsewhere = (
      await inject({ method: 'GET', url: `/api/pos/orders/${order.order_number}`, headers: { host: '127.0.0.1:9999' } })
    ).json();
    expect(elsewhere.refunds[0].payment_request_url).toBe(`http://127.0.0.1:9999/api/pos/refunds/${body.id}/payment-request`);
    // Paid, it takes no payment request.
    expectError(await inject({ method: 'GET', url: new URL(body.payment_request_url).pathname }), 409, 'failed_precondition');
  });

  it('refuses staff (403), another organisation (404), and bad input with a clear 4xx, never a 5xx', async () => {
    const order = await paidOrder(cafe);
    expectError(await refund(staffKey, order.order_number, { org_handle: cafe.handle, whole: true }), 403, 'forbidden');
    const other = await stack.walletOrg('Other Cafe');
    expectError(await refund(other.key, order.order_number, { org_handle: other.handle, whole: true }), 404, 'not_found');
    expectError(await refund(other.key, order.order_number, { org_handle: cafe.handle, whole: true }), 403, 'forbidden');
    const bad: [object, number, string][] = [
      [{ org_handle: cafe.handle }, 422, 'validation_failed'],
      [{ org_handle: cafe.handle, whole: true, amount_minor: 5 }, 422, 'validation_failed'],
      [{ org_handle: cafe.handle, whole: true, reason: 'bad\u0000reason' }, 422, 'validation_failed'],
      [{ org_handle: cafe.handle, whole: true, reason: 'bell\u0007' }, 422, 'validation_failed'],
      [{ org_handle: cafe.handle, amount_minor: 1e30 }, 422, 'validation_failed'],
      [{ org_handle: cafe.handle, amount_minor: -5 }, 422, 'validation_failed'],
      [{ org_handle: cafe.handle, amount_minor: '12abc' }, 422, 'validation_failed'],
      [{ org_handle: cafe.handle, lines: [{ line: -1 }] }, 422, 'validation_failed'],
      [{ org_handle: cafe.handle, lines: [{ line: 7 }] }, 422, 'validation_failed'],
      [{ org_handle: cafe.handle, lines: [{ line: 0, quantity: 3 }] }, 422, 'validation_failed'],
      [{ org_handle: cafe.handle, whole: true, refund_to: 'not an address\u0000' }, 422, 'validation_failed'],
      [{ org_handle: cafe.handle, whole: true, unknown: 1 }, 422, 'validation_failed'],
      [{ org_handle: cafe.handle, amount_minor: 1001 }, 409, 'refund_exceeds_paid'],
    ];
    for (const [payload, status, code] of bad) expectError(await refund(cafe.key, order.order_number, payload), status, code);
    for (const number of ['ZZZZZZZZZZ', 'abc%00defg', '0123456789AB'])
      expect((await refund(cafe.key, number, { org_handle: cafe.handle, whole: true })).statusCode).toBeOneOf([404, 422]);
    // An order whose payment gave no refund address needs one named.
    const unaddressed = await paidOrder(cafe, '');
    const missing = await refund(cafe.key, unaddressed.order_number, { org_handle: cafe.handle, whole: true });
    expectError(missing, 422, 'validation_failed');
    expect(missing.json().error.message).toMatch(/refund_to/);
    // Nothing of that reserved anything: the whole order is still refundable.
    expect((await refund(cafe.key, order.order_number, { org_handle: cafe.handle, whole: true })).json().amount_minor).toBe(1000);
  });

  it('cancels a pending refund (admin only), which releases it', async () => {
    const order = await paidOrder(cafe);
    const made = (await refund(cafe.key, order.order_number, { org_handle: cafe.handle, whole: true })).json();
    expectError(await refund(cafe.key, order.order_number, { org_handle: cafe.handle, amount_minor: 1 }), 409, 'refund_exceeds_paid');
    const cancel = (key: string) =>
      inject({ method: 'POST', url: `/api/pos/refunds/${made.id}/cancel`, headers: bearer(key), payload: { org_handle: cafe.handle } });
    expectError(await cancel(staffKey), 403, 'forbidden');
    const cancelled = await cancel(cafe.key);
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(cancelled.json()).toMatchObject({ id: made.id, status: 'cancelled' });
    expect((await refund(cafe.key, order.order_number, { org_handle: cafe.handle, amount_minor: 1 })).statusCode).toBe(201);
    expectError(await inject({ method: 'GET', url: '/api/pos/refunds/not-a-uuid/payment-request' }), 422, 'validation_failed');
  });

  it('20 refunds of one order at once through HTTP never pay back more than it took', { tags: ['concurrency'] }, async () => {
    const order = await paidOrder(cafe);
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => refund(cafe.key, order.order_number, { org_handle: cafe.handle, amount_minor: 300 })),
    );
    const statuses = answers.map((answer) => answer.statusCode);
    // 1000 paid: three refunds of 300 fit.
    expect(statuses.filter((status) => status === 201)).toHaveLength(3);
    expect(statuses.filter((status) => status === 409)).toHaveLength(17);
    for (const answer of answers.filter((a) => a.statusCode === 409)) expect(answer.json().error.code).toBe('refund_exceeds_paid');
    const shown = (await inject({ method: 'GET', url: `/api/pos/orders/${order.order_number}` })).json();
    expect(shown.refunded_minor).toBe(900);
    expect(shown.refunds.reduce((sum: number, r: { satoshis: number }) => sum + r.satoshis, 0)).toBe(90_000);
  });
});
