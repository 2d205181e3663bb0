import { once } from 'node:events';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, bearer, onboard, type Onboarded } from './harness.js';
import { EVENT_STREAMS_PER_ADDRESS, startOrderStack } from './order-harness.js';
import { expectError, uniqueName } from './support.js';

let stack: Awaited<ReturnType<typeof startOrderStack>>;
beforeAll(async () => {
  stack = await startOrderStack();
  // The services and a chain starting beside other test runs on a loaded machine can take over a minute.
}, 180_000);
afterAll(() => stack?.close());

const inject = (options: InjectOptions) => stack.gateway.app.inject(options);
const LINE = { name: 'Flat white', quantity: 2, unit_price_minor: 450 };
const createOrder = (key: string, payload: object) => inject({ method: 'POST', url: '/api/pos/orders', headers: bearer(key), payload });
const staffPost = (key: string, number: string, action: 'confirm' | 'cancel', payload: object) =>
  inject({ method: 'POST', url: `/api/pos/orders/${number}/${action}`, headers: bearer(key), payload });

describe('orders through the gateway and pos', () => {
  let cafe: Onboarded;
  let staffKey: string;
  beforeAll(async () => {
    cafe = await stack.walletOrg('Blue Bottle Cafe');
    staffKey = (await addMember(stack.gateway, cafe, 'staff')).key;
  });

  it("lists the organisation's orders to its staff, by status or number typed, and to nobody else", async () => {
    const shop = await stack.walletOrg('Listed Cafe');
    const made = (await createOrder(shop.key, { org_handle: shop.handle, lines: [LINE] })).json();
    const list = (query: string, key = shop.key) =>
      inject({ method: 'GET', url: `/api/v1/orgs/${shop.handle}/orders${query}`, headers: bearer(key) });
    const all = await list('');
    expect(all.statusCode).toBe(200);
    expect(all.json()).toMatchObject({ data: [{ order_number: made.order_number, status: 'open', total_minor: 900 }], next_cursor: null });
    expect((await list(`?search=${made.order_number.slice(0, 4).toLowerCase()}&status=open`)).json().data).toHaveLength(1);
    expect((await list('?status=paid')).json().data).toEqual([]);
    expectError(await list('?status=refunded'), 422, 'validation_failed');
    expectError(await list('?limit=1000'), 422, 'validation_failed');
    expectError(await list('', staffKey), 403, 'forbidden');
  });

  it('staff create an order; anyone reads it by number, and it shows nothing private', async () => {
    const created = await createOrder(staffKey, { org_handle: cafe.handle, lines: [LINE], tip_minor: 100, note: 'Table 4' });
    expect(created.statusCode).toBe(201);
    const order = created.json();
    expect(order).toMatchObject({
      status: 'open',
      subtotal_minor: 900,
      tip_minor: 100,
      total_minor: 1000,
      satoshis: 100_000,
      due_satoshis: 100_000,
      paid_at: null,
      merchant_handle: cafe.handle,
      lines: [{ item_id: '', name: 'Flat white', quantity: 2, unit_price_minor: 450, total_minor: 900, modifiers: [] }],
    });
    expect(new URL(order.payment_request_url).pathname).toBe(`/api/pos/orders/${order.order_number}/payment-request`);
    expect(order.pay_uri).toBe(`pay:?r=${encodeURIComponent(order.payment_request_url)}`);
    const read = await inject({ method: 'GET', url: `/api/pos/orders/${order.order_number}` });
    expect(read.statusCode).toBe(200);
    expect(read.json()).toEqual(order);
    for (const secret of [cafe.orgId, cafe.userId, 'xpub', 'created_by', 'organization_id']) expect(read.body).not.toContain(secret);
  });

  it('staff price a cart with POST /api/pos/orders/quote: the total the order then charges, nothing created, the tip before tax', async () => {
    const taxed = await stack.walletOrg('Quoted Cafe');
    await inject({
      method: 'PATCH',
      url: `/api/v1/organizations/${taxed.handle}`,
      headers: bearer(taxed.key),
      payload: { jurisdiction: 'US-CA' },
    });
    const body = { org_handle: taxed.handle, lines: [LINE], discount_basis_points: 1000, tip_basis_points: 1500 };
    const quoted = await inject({ method: 'POST', url: '/api/pos/orders/quote', headers: bearer(taxed.key), payload: body });
    expect(quoted.statusCode, quoted.body).toBe(200);
    const quote = quoted.json();
    // 900 less 10% = 810 before tax; the 15% tip is 121.5 -> 122 of that, not of the taxed amount.
    expect(quote).toMatchObject({ currency: 'USD', subtotal_minor: 900, discount_minor: 90, tip_minor: 122, reward_minor: 0 });
    expect(quote.total_minor).toBe(810 + quote.tax_minor + 122);
    const order = (await createOrder(taxed.key, body)).json();
    for (const field of ['lines', 'subtotal_minor', 'discount_minor', 'tax_minor', 'tip_minor', 'total_minor'])
      expect(order[field], field).toEqual(quote[field]);
    // A quote is not an order: it takes no Idempotency-Key, and a malformed one is 422 like the order.
    const again = await inject({
      method: 'POST',
      url: '/api/pos/orders/quote',
      headers: { ...bearer(taxed.key), 'idempotency-key': 'cart-1' },
      payload: { ...body, discount_minor: 100_000, discount_basis_points: undefined },
    });
    expectError(again, 422, 'validation_failed');
    const anonymous = await inject({ method: 'POST', url: '/api/pos/orders/quote', payload: body });
    expect(anonymous.statusCode).toBe(401);
  });

  it('takes a BIP270 payment: the request in BIP270 names, the Payment acknowledged, the order paid', async () => {
    const order = (await createOrder(staffKey, { org_handle: cafe.handle, lines: [LINE] })).json();
    const request = await inject({ method: 'GET', url: `/api/pos/orders/${order.order_number}/payment-request` });
    expect(request.statusCode).toBe(200);
    const body = request.json();
    expect(Object.keys(body).sort()).toEqual([
      'creationTimestamp',
      'expirationTimestamp',
      'memo',
      'merchantData',
      'network',
      'outputs',
      'paymentUrl',
    ]);
    expect(body.outputs.map((output: { amount: number }) => output.amount)).toEqual([order.due_satoshis, 0]);
    const tx = await stack.paying(
      body.outputs.map((output: { script: string; amount: number }) => ({ script: output.script, satoshis: output.amount })),
    );
    const ack = await inject({
      method: 'POST',
      url: new URL(body.paymentUrl).pathname,
      payload: { transaction: tx.toHex(), merchantData: body.merchantData },
    });
    expect(ack.statusCode).toBe(200);
    expect(ack.json()).toMatchObject({ payment: { transaction: tx.toHex(), merchantData: body.merchantData }, error: 0 });
    const paid = (await inject({ method: 'GET', url: `/api/pos/orders/${order.order_number}` })).json();
    expect(paid).toMatchObject({
      status: 'paid',
      paid_satoshis: order.satoshis,
      due_satoshis: 0,
      payments: [{ txid: tx.id('hex'), via: 'payment_request' }],
    });
    // Paid, it takes no other payment request.
    expectError(await inject({ method: 'GET', url: `/api/pos/orders/${order.order_number}/payment-request` }), 409, 'failed_precondition');
  });

  it('draws the QR as SVG and PNG, and streams a final order as one Server-Sent Event', async () => {
    const order = (await createOrder(staffKey, { org_handle: cafe.handle, lines: [LINE] })).json();
    const svg = await inject({ method: 'GET', url: `/api/pos/orders/${order.order_number}/qr` });
    expect(svg.statusCode).toBe(200);
    expect(svg.headers['content-type']).toMatch(/^image\/svg\+xml/);
    expect(svg.body).toMatch(/^<svg/);
    const png = await inject({ method: 'GET', url: `/api/pos/orders/${order.order_number}/qr?format=png` });
    expect(png.headers['content-type']).toBe('image/png');
    expect(png.rawPayload.subarray(1, 4).toString()).toBe('PNG');

    const cancelled = await staffPost(staffKey, order.order_number, 'cancel', { org_handle: cafe.handle });
    expect(cancelled.statusCode).toBe(200);
    expect(cancelled.json()).toMatchObject({ status: 'cancelled', due_satoshis: 0 });
    const events = await inject({ method: 'GET', url: `/api/pos/orders/${order.order_number}/events` });
    expect(events.statusCode).toBe(200);
    expect(events.headers['content-type']).toMatch(/^text\/event-stream/);
    expect(events.body).toBe(`event: order\ndata: ${JSON.stringify(cancelled.json())}\n\n`);
  });

  it("another organisation's staff cannot create for, confirm or cancel this organisation's orders", async () => {
    const order = (await createOrder(staffKey, { org_handle: cafe.handle, lines: [LINE] })).json();
    const other = await stack.walletOrg('Other Cafe');
    expectError(await createOrder(other.key, { org_handle: cafe.handle, lines: [LINE] }), 403, 'forbidden');
    const txid = 'ab'.repeat(32);
    expectError(await staffPost(other.key, order.order_number, 'confirm', { org_handle: cafe.handle, txid }), 403, 'forbidden');
    expectError(await staffPost(other.key, order.order_number, 'cancel', { org_handle: cafe.handle }), 403, 'forbidden');
    // In its own name, the order is not found at all.
    expectError(await staffPost(other.key, order.order_number, 'confirm', { org_handle: other.handle, txid }), 404, 'not_found');
    expectError(await staffPost(other.key, order.order_number, 'cancel', { org_handle: other.handle }), 404, 'not_found');
    expect((await inject({ method: 'GET', url: `/api/pos/orders/${order.order_number}` })).json().status).toBe('open');
    // Without a key: 401.
    expectError(
      await inject({ method: 'POST', url: `/api/pos/orders/${order.order_number}/cancel`, payload: { org_handle: cafe.handle } }),
      401,
      'unauthenticated',
    );
  });

  it.each([
    ['no org_handle', { lines: [LINE] }],
    ['no lines', { org_handle: 'HANDLE', lines: [] }],
    ['an unknown field', { org_handle: 'HANDLE', lines: [LINE], discount: 5 }],
    ['a quantity as text', { org_handle: 'HANDLE', lines: [{ ...LINE, quantity: '2' }] }],
    ['a negative price', { org_handle: 'HANDLE', lines: [{ ...LINE, unit_price_minor: -1 }] }],
    ['a NUL in the note', { org_handle: 'HANDLE', lines: [LINE], note: 'a\u0000b' }],
    ['a price in a float', { org_handle: 'HANDLE', lines: [{ ...LINE, unit_price_minor: 4.5 }] }],
    ['both tips', { org_handle: 'HANDLE', lines: [LINE], tip_minor: 10, tip_basis_points: 1000 }],
    ['a discount above the subtotal', { org_handle: 'HANDLE', lines: [LINE], discount_minor: 901 }],
  ])('refuses an order with %s as 422, creating nothing', async (_, payload) => {
    const body = JSON.parse(JSON.stringify(payload).replaceAll('HANDLE', cafe.handle));
    expectError(await createOrder(staffKey, body), 422, 'validation_failed');
  });

  it.each([
    ['101 lines', { lines: Array.from({ length: 101 }, () => LINE) }, 'lines'],
    ['a quantity of 10,001', { lines: [{ ...LINE, quantity: 10_001 }] }, 'lines.0.quantity'],
    [
      '21 modifiers on a line',
      { lines: [{ ...LINE, modifiers: Array.from({ length: 21 }, (_, i) => ({ modifier_id: `m${i}` })) }] },
      'lines.0.modifiers',
    ],
    ['a tip of 10,001 basis points', { lines: [LINE], tip_basis_points: 10_001 }, 'tip_basis_points'],
    ['a discount of 2^31 basis points', { lines: [LINE], discount_basis_points: 2 ** 31 }, 'discount_basis_points'],
  ])('refuses an order with %s as 422 naming the field', async (_, fields, field) => {
    const refused = await createOrder(staffKey, { org_handle: cafe.handle, ...fields });
    expectError(refused, 422, 'validation_failed');
    expect(refused.json().error.details.field).toBe(field);
  });

  it('refuses malformed order numbers, formats and payments as 422, and an unknown number as 404', async () => {
    expectError(await inject({ method: 'GET', url: '/api/pos/orders/short' }), 422, 'validation_failed');
    expectError(await inject({ method: 'GET', url: '/api/pos/orders/0000000000' }), 404, 'not_found');
    expectError(await inject({ method: 'GET', url: '/api/pos/orders/0000000000/events' }), 404, 'not_found');
    expectError(await inject({ method: 'GET', url: '/api/pos/orders/0000000000/qr' }), 404, 'not_found');
    const order = (await createOrder(staffKey, { org_handle: cafe.handle, lines: [LINE] })).json();
    expectError(await inject({ method: 'GET', url: `/api/pos/orders/${order.order_number}/qr?format=gif` }), 422, 'validation_failed');
    const pay = (payload: object) => inject({ method: 'POST', url: `/api/pos/orders/${order.order_number}/payment`, payload });
    expectError(await pay({}), 422, 'validation_failed');
    expectError(await pay({ transaction: 'not hex' }), 422, 'validation_failed');
    expectError(await pay({ transaction: '0100', evil: true }), 422, 'validation_failed');
    expectError(
      await staffPost(staffKey, order.order_number, 'confirm', { org_handle: cafe.handle, txid: 'xyz' }),
      422,
      'validation_failed',
    );
    expect((await inject({ method: 'GET', url: `/api/pos/orders/${order.order_number}` })).json()).toMatchObject({
      status: 'open',
      payments: [],
    });
  });

  it('an organisation without a wallet is told how to register one', async () => {
    const bare = await onboard(stack.gateway, uniqueName('No Wallet Cafe'));
    expectError(await createOrder(bare.key, { org_handle: bare.handle, lines: [LINE] }), 409, 'failed_precondition');
  });
});

describe('one BIP270 payment per order', () => {
  let cafe: Onboarded;
  beforeAll(async () => {
    cafe = await stack.walletOrg('Race Cafe');
  });

  /** A new order with what its BIP270 request asks for: the Payment URL, merchantData and the outputs. */
  async function orderToPay() {
    const order = (await createOrder(cafe.key, { org_handle: cafe.handle, lines: [LINE] })).json();
    const request = (await inject({ method: 'GET', url: `/api/pos/orders/${order.order_number}/payment-request` })).json();
    const outputs = request.outputs.map((output: { script: string; amount: number }) => ({
      script: output.script,
      satoshis: output.amount,
    }));
    return { order, url: new URL(request.paymentUrl).pathname, merchantData: request.merchantData as string, outputs };
  }

  it(
    '20 different valid payments of one order at once: one is accepted and broadcast, the other 19 are 409 and never reach the chain',
    { tags: ['concurrency'] },
    async () => {
      const { order, url, merchantData, outputs } = await orderToPay();
      const txs = await Promise.all(Array.from({ length: 20 }, () => stack.paying(outputs)));
      const answers = await Promise.all(
        txs.map((tx) => inject({ method: 'POST', url, payload: { transaction: tx.toHex(), merchantData } })),
      );
      expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, ...Array<number>(19).fill(409)]);
      for (const refused of answers.filter((answer) => answer.statusCode !== 200)) expectError(refused, 409, 'failed_precondition');
      const winner = txs[answers.findIndex((answer) => answer.statusCode === 200)]!;
      const onChain = await Promise.all(txs.map((tx) => stack.onChain(tx.id('hex'))));
      expect(txs.filter((_, index) => onChain[index]).map((tx) => tx.id('hex'))).toEqual([winner.id('hex')]);
      expect((await inject({ method: 'GET', url: `/api/pos/orders/${order.order_number}` })).json()).toMatchObject({
        status: 'paid',
        paid_satoshis: order.satoshis,
        flags: [],
        payments: [{ txid: winner.id('hex'), via: 'payment_request' }],
      });
      // A second payment afterwards gets the same answer as the racing ones; the wallet's retry of the winner is acknowledged.
      const loser = txs.find((tx) => tx !== winner)!;
      expectError(await inject({ method: 'POST', url, payload: { transaction: loser.toHex(), merchantData } }), 409, 'failed_precondition');
      expect((await inject({ method: 'POST', url, payload: { transaction: winner.toHex(), merchantData } })).statusCode).toBe(200);
      expect(await stack.onChain(loser.id('hex'))).toBe(false);
    },
  );

  it('a refused payment leaves the order payable: an underpaying transaction is 422, the next valid one pays', async () => {
    const { order, url, merchantData, outputs } = await orderToPay();
    const short = await stack.paying([{ ...outputs[0], satoshis: outputs[0].satoshis - 1 }, outputs[1]]);
    expectError(await inject({ method: 'POST', url, payload: { transaction: short.toHex(), merchantData } }), 422, 'payment_underpaid');
    expect(await stack.onChain(short.id('hex'))).toBe(false);
    const good = await stack.paying(outputs);
    expect((await inject({ method: 'POST', url, payload: { transaction: good.toHex(), merchantData } })).statusCode).toBe(200);
    expect((await inject({ method: 'GET', url: `/api/pos/orders/${order.order_number}` })).json()).toMatchObject({ status: 'paid' });
  });

  it("takes BIP270's own media types: a Payment sent as application/bitcoinsv-payment is answered application/bitcoinsv-paymentack", async () => {
    const { order, url, merchantData, outputs } = await orderToPay();
    const tx = await stack.paying(outputs);
    const payment = { transaction: tx.toHex(), merchantData, memo: 'From my wallet' };
    const ack = await inject({
      method: 'POST',
      url,
      headers: { 'content-type': 'application/bitcoinsv-payment', accept: 'application/bitcoinsv-paymentack' },
      payload: JSON.stringify(payment),
    });
    expect(ack.statusCode).toBe(200);
    expect(ack.headers['content-type']).toMatch(/^application\/bitcoinsv-paymentack/);
    expect(JSON.parse(ack.body)).toMatchObject({ payment, error: 0 });
    // The wallet's retry in JSON is answered in JSON.
    const again = await inject({ method: 'POST', url, payload: payment });
    expect(again.statusCode).toBe(200);
    expect(again.headers['content-type']).toMatch(/^application\/json/);
    expect((await inject({ method: 'GET', url: `/api/pos/orders/${order.order_number}` })).json()).toMatchObject({ status: 'paid' });
    // Another route does not take the BIP270 type; a bad body in it is a 400 as in JSON.
    expectError(
      await inject({
        method: 'POST',
        url: '/api/pos/orders',
        headers: { ...bearer(cafe.key), 'content-type': 'application/bitcoinsv-payment' },
        payload: JSON.stringify({ org_handle: cafe.handle, lines: [LINE] }),
      }),
      415,
      'unsupported_media_type',
    );
    expectError(
      await inject({ method: 'POST', url, headers: { 'content-type': 'application/bitcoinsv-payment' }, payload: '{"transaction":' }),
      400,
      'bad_request',
    );
  });
});

describe('order event streams from one address', () => {
  /** A stream over the wire, as a browser holds it: the answer's head once the first event is sent. */
  const openStream = (number: string) =>
    new Promise<IncomingMessage>((resolve, reject) => {
      const port = stack.gateway.port;
      httpRequest({ host: '127.0.0.1', port, path: `/api/pos/orders/${number}/events` }, resolve)
        .on('error', reject)
        .end();
    });
  const bodyOf = async (response: IncomingMessage) => {
    let text = '';
    for await (const chunk of response) text += String(chunk);
    return JSON.parse(text);
  };

  it('are bounded: one more than the limit is refused with 429 rate_limited, and a closed one frees its place', async () => {
    const cafe = await stack.walletOrg('Stream Cafe');
    const number = (await createOrder(cafe.key, { org_handle: cafe.handle, lines: [LINE] })).json().order_number;
    const open = [];
    for (let index = 0; index < EVENT_STREAMS_PER_ADDRESS; index++) {
      const stream = await openStream(number);
      expect(stream.statusCode).toBe(200);
      open.push(stream);
    }
    const refused = await openStream(number);
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toBe('60');
    expect((await bodyOf(refused)).error.code).toBe('rate_limited');

    open[0]!.destroy();
    await once(open[0]!, 'close');
    // The gateway sees the client go on its own time.
    let again = await openStream(number);
    for (let tries = 0; again.statusCode === 429 && tries < 50; tries++) {
      again.resume();
      await new Promise((later) => setTimeout(later, 20));
      again = await openStream(number);
    }
    expect(again.statusCode).toBe(200);
    for (const stream of [...open.slice(1), again]) stream.destroy();
  });
});
