import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { eventually } from '@ctk/shared/testing';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, bearer, onboard, type Onboarded } from './harness.js';
import { startOrderStack } from './order-harness.js';
import { expectError, expectRefused, uniqueClientAddress, uniqueName } from './support.js';

/*
 * An attacker's pass over the Commerce API, tickets, provider webhooks and wallet passes, through the real gateway and
 * services: odd bytes, lengths and types, credentials spelled another way, another organisation's ids, replays and races.
 * Every refusal is a 4xx with a stable code, nothing is written half, and nothing of another organisation is answered.
 */

let stack: Awaited<ReturnType<typeof startOrderStack>>;
beforeAll(async () => {
  stack = await startOrderStack({ commerce: true });
}, 90_000);
afterAll(() => stack?.close());

const inject = (options: InjectOptions) => stack.gateway.app.inject(options);
const ORIGIN = 'https://evil.example';
const nextYear = new Date().getFullYear() + 1;

type Shop = Onboarded & {
  commerceKey: string;
  staffKey: string;
  itemId: string;
  eventId: string;
  standing: string;
  secret: string;
};

async function shop(label: string, standing = 10): Promise<Shop> {
  const owner = await stack.walletOrg(label);
  const item = await inject({
    method: 'POST',
    url: `/api/v1/orgs/${owner.handle}/items`,
    headers: bearer(owner.key),
    payload: { name: 'Latte', price_cents: 450 },
  });
  const key = await inject({ method: 'POST', url: `/api/v1/orgs/${owner.handle}/commerce-key`, headers: bearer(owner.key) });
  const staff = await addMember(stack.gateway, owner, 'staff');
  const catalog = await inject({
    method: 'PUT',
    url: `/api/v1/orgs/${owner.handle}/tickets/catalog`,
    headers: bearer(owner.key),
    payload: { events: [jazzNight(standing)] },
  });
  expect(catalog.statusCode, catalog.body).toBe(200);
  const secret = `whsec_${randomBytes(24).toString('base64url')}`;
  const set = await inject({
    method: 'PUT',
    url: `/api/v1/orgs/${owner.handle}/payment-providers/card-provider`,
    headers: bearer(owner.key),
    payload: { webhook_secret: secret },
  });
  expect(set.statusCode, set.body).toBe(200);
  const event = catalog.json().events[0];
  return {
    ...owner,
    commerceKey: key.json().commerce_public_key,
    staffKey: staff.key,
    itemId: item.json().id,
    eventId: event.id,
    standing: event.ticket_types[0].id,
    secret,
  };
}

function jazzNight(standing: number) {
  return {
    name: 'Jazz night',
    starts_at: `${nextYear}-06-12T19:00:00Z`,
    ends_at: `${nextYear}-06-12T23:00:00Z`,
    venue: 'Back room',
    ticket_types: [{ name: 'Standing', price_minor: 2500, currency: 'USD', capacity: standing }],
  };
}

/** A shopper's browser, each request from an address of its own (the checkout rate limit is per address). */
const browser = (shop: Pick<Shop, 'commerceKey'>, options: InjectOptions) =>
  inject({
    remoteAddress: uniqueClientAddress(),
    ...options,
    headers: { origin: ORIGIN, 'x-commerce-key': shop.commerceKey, ...options.headers },
  });
const base = (shop: Pick<Shop, 'handle'>) => `/api/v1/commerce/${shop.handle}`;
const checkout = (shop: Shop, payload: unknown) =>
  browser(shop, { method: 'POST', url: `${base(shop)}/checkout`, payload: payload as object });
const buyTickets = (shop: Shop, payload: unknown) =>
  browser(shop, { method: 'POST', url: `${base(shop)}/tickets/checkout`, payload: payload as object });

const stripeSignature = (secret: string, body: string, t = Math.floor(Date.now() / 1000)) =>
  `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${body}`).digest('hex')}`;
const deliver = (org: string, body: string, signature?: string) =>
  inject({
    method: 'POST',
    url: `/api/webhooks/card-provider?org=${org}`,
    headers: { 'content-type': 'application/json', ...(signature ? { 'stripe-signature': signature } : {}) },
    payload: body,
  });
function stripeEvent(type: string, object: Record<string, unknown>) {
  const id = `evt_${randomBytes(12).toString('hex')}`;
  return JSON.stringify({ id, object: 'event', created: 1763900000, livemode: false, type, data: { object } }, null, 2);
}

let cafe: Shop;
let other: Shop;
beforeAll(async () => {
  cafe = await shop('Attack Cafe');
  other = await shop('Other Cafe');
}, 60_000);

const BAD_BYTES = ['%00', '%07', '%0A', '%1B', '%7F', `${'a'.repeat(5000)}`, '..%2F..%2Fetc', '%E2%80%AE', '%FF'];

describe('path parameters and queries with odd bytes', () => {
  it('on the commerce routes: a NUL, a control character, 5000 characters in the handle, id or token get a 4xx', async () => {
    for (const bad of BAD_BYTES) {
      for (const url of [
        `/api/v1/commerce/${bad}`,
        `/api/v1/commerce/${bad}/catalog`,
        `/api/v1/commerce/${cafe.handle}${bad}/catalog`,
        `${base(cafe)}/catalog/${bad}`,
        `${base(cafe)}/catalog/${cafe.itemId}${bad}`,
        `${base(cafe)}/checkout/${bad}/status`,
        `${base(cafe)}/checkout/cko_${'A'.repeat(31)}${bad}/status`,
      ])
        expectRefused(url.slice(0, 120), await browser(cafe, { method: 'GET', url }));
      // A query parameter a route does not take is refused 422, never a 500.
      for (const url of [`${base(cafe)}/tickets?x=${bad}`, `${base(cafe)}/catalog?limit=${bad}`, `${base(cafe)}?${bad}=1`]) {
        const answer = await browser(cafe, { method: 'GET', url });
        if (answer.statusCode !== 200) expectRefused(url.slice(0, 120), answer, 'validation_failed');
      }
      expectRefused(`checkout ${bad}`, await browser(cafe, { method: 'POST', url: `/api/v1/commerce/${bad}/checkout`, payload: {} }));
    }
  });

  it('on the staff routes, the ticket QR, the webhooks and the wallet passes', async () => {
    for (const bad of BAD_BYTES) {
      const admin = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
        inject({ method, url, headers: bearer(cafe.key), ...(payload ? { payload } : {}) });
      expectRefused(`qr ${bad}`, await inject({ method: 'GET', url: `/api/v1/tickets/${bad}/qr` }));
      expectRefused(`qr format ${bad}`, await inject({ method: 'GET', url: `/api/v1/tickets/${'0'.repeat(20)}/qr?format=${bad}` }));
      expectRefused(`orders ${bad}`, await admin('GET', `/api/v1/orgs/${cafe.handle}/tickets/orders?cursor=${bad}`));
      expectRefused(`orders limit ${bad}`, await admin('GET', `/api/v1/orgs/${cafe.handle}/tickets/orders?limit=${bad}`));
      expectRefused(`events ${bad}`, await admin('GET', `/api/v1/orgs/${cafe.handle}/payment-providers/events?outcome=${bad}`));
      expectRefused(`events cursor ${bad}`, await admin('GET', `/api/v1/orgs/${cafe.handle}/payment-providers/events?cursor=${bad}`));
      expectRefused(
        `provider ${bad}`,
        await admin('PUT', `/api/v1/orgs/${cafe.handle}/payment-providers/card-provider${bad}`, { webhook_secret: 'whsec_x' }),
      );
      expectRefused(`commerce-key ${bad}`, await admin('POST', `/api/v1/orgs/${cafe.handle}${bad}/commerce-key`));
      expectRefused(`tickets catalog ${bad}`, await admin('PUT', `/api/v1/orgs/${bad}/tickets/catalog`, { events: [] }));
      expectRefused(`webhook org ${bad}`, await deliver(bad, '{}', stripeSignature(cafe.secret, '{}')));
      expectRefused(`webhook org suffix ${bad}`, await deliver(`${cafe.handle}${bad}`, '{}', stripeSignature(cafe.secret, '{}')));
      expectRefused(`apple ${bad}`, await inject({ method: 'GET', url: `/api/v1/passes/coffee/${bad}/apple`, headers: bearer(cafe.key) }));
      expectRefused(
        `google ${bad}`,
        await inject({ method: 'GET', url: `/api/v1/passes/coffee/${bad}/google`, headers: bearer(cafe.key) }),
      );
    }
    expectRefused('no org', await deliver('', '{}', stripeSignature(cafe.secret, '{}')));
    expectRefused(
      'no org at all',
      await inject({ method: 'POST', url: '/api/webhooks/card-provider', payload: '{}', headers: { 'content-type': 'application/json' } }),
    );
  });

  it('checkout.js: no path leads out of the released scripts', async () => {
    for (const url of [
      '/checkout/v1/..%2F..%2Fpackage.json',
      '/checkout/..%2F..%2Fpackage.json/checkout.js',
      '/checkout/%2E%2E/checkout.js',
      '/checkout/v1/checkout.js%00',
      '/checkout/v1%00/checkout.js',
      '/checkout/..%5C..%5Csrc/checkout.js',
      `/checkout/${'v'.repeat(5000)}/checkout.js`,
    ]) {
      const answer = await inject({ method: 'GET', url });
      expect({ url, status: answer.statusCode }).toEqual({ url, status: 404 });
      expect(answer.body).not.toContain('"name"');
    }
    expect((await inject({ method: 'GET', url: '/checkout/v1/checkout.js' })).statusCode).toBe(200);
  });
});

describe('the commerce key spelled another way', () => {
  it('in another case, with spaces, twice, or as a Bearer, is no key', async () => {
    const url = `${base(cafe)}/catalog`;
    const key = cafe.commerceKey;
    const variants: [string, Record<string, string | string[]>][] = [
      ['upper case', { 'x-commerce-key': key.toUpperCase() }],
      ['lower case', { 'x-commerce-key': key.toLowerCase() }],
      ['trailing space', { 'x-commerce-key': `${key} ` }],
      ['tab inside', { 'x-commerce-key': `${key.slice(0, 8)}\t${key.slice(8)}` }],
      ['prefix only', { 'x-commerce-key': key.slice(0, 12) }],
      ['a long key', { 'x-commerce-key': `${key}${'x'.repeat(8000)}` }],
      ['bearer', { authorization: `Bearer ${key}` }],
      ['user API key', { 'x-commerce-key': cafe.key }],
      ['staff API key', { 'x-commerce-key': cafe.staffKey }],
      ['empty', { 'x-commerce-key': '' }],
    ];
    for (const [label, headers] of variants) {
      const answer = await inject({ method: 'GET', url, headers: { origin: ORIGIN, ...headers } });
      if (label === 'upper case' && key.toUpperCase() === key) continue;
      if (label === 'lower case' && key.toLowerCase() === key) continue;
      expectRefused(label, answer);
      expect({ label, status: answer.statusCode }).toEqual({ label, status: 401 });
    }
    const twice = await inject({ method: 'GET', url, headers: { origin: ORIGIN, 'x-commerce-key': [key, other.commerceKey] } });
    expectRefused('twice', twice);
  });

  it("with a valid key of one merchant, another merchant's ticket code, checkout token, item and event stay out of reach", async () => {
    const theirs = (await buyTickets(other, { lines: [{ ticket_type_id: other.standing, quantity: 1 }] })).json();
    expectError(await browser(cafe, { method: 'GET', url: `${base(cafe)}/checkout/${theirs.public_token}/status` }), 404, 'not_found');
    expectError(await browser(cafe, { method: 'GET', url: `${base(other)}/checkout/${theirs.public_token}/status` }), 403, 'forbidden');
    const theirType = await buyTickets(cafe, { lines: [{ ticket_type_id: other.standing, quantity: 1 }] });
    expectRefused('their ticket type', theirType);
    expect(theirType.statusCode).not.toBe(201);
    const theirEvent = await inject({
      method: 'PUT',
      url: `/api/v1/orgs/${cafe.handle}/tickets/catalog`,
      headers: bearer(cafe.key),
      payload: { events: [{ ...jazzNight(10), id: other.eventId }] },
    });
    expectRefused('their event id', theirEvent);
    // Their event is untouched.
    const list = (await browser(other, { method: 'GET', url: `${base(other)}/tickets` })).json();
    expect(list.events.map((e: { id: string }) => e.id)).toEqual([other.eventId]);
    const orders = await inject({ method: 'GET', url: `/api/v1/orgs/${cafe.handle}/tickets/orders`, headers: bearer(cafe.key) });
    expect(orders.body).not.toContain(theirs.order_number);
    expectError(
      await inject({ method: 'GET', url: `/api/v1/orgs/${other.handle}/tickets/orders`, headers: bearer(cafe.key) }),
      403,
      'forbidden',
    );
    for (const [method, url] of [
      ['GET', `/api/v1/orgs/${other.handle}/payment-providers/events`],
      ['PUT', `/api/v1/orgs/${other.handle}/payment-providers/card-provider`],
      ['POST', `/api/v1/orgs/${other.handle}/commerce-key`],
      ['PUT', `/api/v1/orgs/${other.handle}/tickets/catalog`],
      ['POST', `/api/v1/orgs/${other.handle}/tickets/check-in`],
    ] as const) {
      const payload =
        method === 'GET'
          ? undefined
          : url.endsWith('catalog')
            ? { events: [] }
            : url.endsWith('check-in')
              ? { code: 'K7QM2X9D4RTV8W1HZP3C' }
              : { webhook_secret: 'whsec_attacker_0123456789' };
      expectError(await inject({ method, url, headers: bearer(cafe.key), ...(payload ? { payload } : {}) }), 403, 'forbidden');
    }
    // Their key and catalog still work.
    expect((await browser(other, { method: 'GET', url: `${base(other)}/tickets` })).json().events).toHaveLength(1);
  });
});

describe('checkout bodies', () => {
  it('refuses wrong types, unknown keys, huge arrays and impossible quantities with 4xx, creating no order', async () => {
    const line = (extra: object) => ({ lines: [{ item_id: cafe.itemId, ...extra }] });
    const cases: [string, unknown][] = [
      ['10,000 lines', { lines: Array.from({ length: 10_000 }, () => ({ item_id: cafe.itemId })) }],
      ['quantity 2^53', line({ quantity: 2 ** 53 })],
      ['quantity 1e308', line({ quantity: 1e308 })],
      ['quantity -1', line({ quantity: -1 })],
      ['quantity 0', line({ quantity: 0 })],
      ['quantity 0.5', line({ quantity: 0.5 })],
      ['quantity null', line({ quantity: null })],
      ['quantity object', line({ quantity: { $gt: 0 } })],
      ['lines an object', { lines: { 0: { item_id: cafe.itemId } } }],
      ['lines a string', { lines: 'latte' }],
      ['item id a number', { lines: [{ item_id: 1 }] }],
      ['item id an array', { lines: [{ item_id: [cafe.itemId] }] }],
      ['modifier ids 10,000', line({ modifier_ids: Array.from({ length: 10_000 }, () => randomUUID()) })],
      ['modifier ids a string', line({ modifier_ids: 'x' })],
      ['proto pollution', JSON.parse(`{"lines":[{"item_id":"${cafe.itemId}"}],"__proto__":{"admin":true}}`)],
      ['constructor key', { lines: [{ item_id: cafe.itemId }], constructor: { prototype: { x: 1 } } }],
      ['an array body', [{ item_id: cafe.itemId }]],
      ['a string body', 'lines'],
      ['a number body', 42],
      ['null body', null],
      ['a NUL key in a line', { lines: [{ item_id: cafe.itemId, 'q\u0000': 1 }] }],
      ['a 100k id', { lines: [{ item_id: 'a'.repeat(100_000) }] }],
    ];
    const ticketOrders = async () =>
      (await inject({ method: 'GET', url: `/api/v1/orgs/${cafe.handle}/tickets/orders?limit=100`, headers: bearer(cafe.key) })).json().data
        .length;
    const before = await ticketOrders();
    for (const [label, payload] of cases) {
      const answer = await browser(cafe, {
        method: 'POST',
        url: `${base(cafe)}/checkout`,
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify(payload),
      });
      expectRefused(label, answer);
      const tickets = await browser(cafe, {
        method: 'POST',
        url: `${base(cafe)}/tickets/checkout`,
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify(
          JSON.parse(
            JSON.stringify(payload ?? null)
              .replaceAll('"item_id"', '"ticket_type_id"')
              .replaceAll(cafe.itemId, cafe.standing),
          ),
        ),
      });
      expectRefused(`tickets ${label}`, tickets);
    }
    expect(await ticketOrders()).toBe(before);
  }, 120_000);

  it('a ticket type repeated over several lines cannot sell more than its capacity', async () => {
    const room = await shop('Small room', 3);
    const answer = await buyTickets(room, {
      lines: [
        { ticket_type_id: room.standing, quantity: 2 },
        { ticket_type_id: room.standing, quantity: 2 },
      ],
    });
    expectRefused('repeated type', answer);
    const list = (await browser(room, { method: 'GET', url: `${base(room)}/tickets` })).json();
    expect(list.events[0].ticket_types[0].available).toBe(3);
  });

  it('100 checkouts at once for the last seat: exactly one made', { tags: ['concurrency'], timeout: 120_000 }, async () => {
    const seat = await shop('Last seat', 1);
    const answers = await Promise.all(
      Array.from({ length: 100 }, () => buyTickets(seat, { lines: [{ ticket_type_id: seat.standing, quantity: 1 }] })),
    );
    expect(answers.filter((a) => a.statusCode === 201)).toHaveLength(1);
    for (const answer of answers.filter((a) => a.statusCode !== 201)) expectRefused('seat', answer);
  });
});

describe('ticket catalog bodies', () => {
  it('refuses control characters, long names, huge numbers and unknown keys, leaving the catalog as it was', async () => {
    const put = (payload: unknown) =>
      inject({
        method: 'PUT',
        url: `/api/v1/orgs/${cafe.handle}/tickets/catalog`,
        headers: { ...bearer(cafe.key), 'content-type': 'application/json' },
        payload: JSON.stringify(payload),
      });
    const night = jazzNight(10);
    const type = night.ticket_types[0]!;
    const cases: [string, unknown][] = [
      ['NUL in name', { events: [{ ...night, name: 'Jazz\u0000night' }] }],
      ['bell in venue', { events: [{ ...night, venue: 'Back\u0007room' }] }],
      ['100k name', { events: [{ ...night, name: 'J'.repeat(100_000) }] }],
      ['capacity 2^53', { events: [{ ...night, ticket_types: [{ ...type, capacity: 2 ** 53 }] }] }],
      ['capacity -1', { events: [{ ...night, ticket_types: [{ ...type, capacity: -1 }] }] }],
      ['capacity 1.5', { events: [{ ...night, ticket_types: [{ ...type, capacity: 1.5 }] }] }],
      ['price 2^53', { events: [{ ...night, ticket_types: [{ ...type, price_minor: 2 ** 53 }] }] }],
      ['price -1', { events: [{ ...night, ticket_types: [{ ...type, price_minor: -1 }] }] }],
      ['price text', { events: [{ ...night, ticket_types: [{ ...type, price_minor: '2500' }] }] }],
      ['date nonsense', { events: [{ ...night, starts_at: 'tomorrow' }] }],
      ['year 275760', { events: [{ ...night, starts_at: '+275760-09-13T00:00:00Z' }] }],
      ['NUL in id', { events: [{ ...night, id: `${cafe.eventId}\u0000` }] }],
      ['unknown key', { events: [{ ...night, sold: 5 }] }],
      ['10,000 events', { events: Array.from({ length: 10_000 }, () => night) }],
      ['10,000 types', { events: [{ ...night, ticket_types: Array.from({ length: 10_000 }, (_, i) => ({ ...type, name: `T${i}` })) }] }],
      ['events not an array', { events: night }],
      ['a NUL key', { events: [], 'x\u0000': 1 }],
    ];
    const before = (await browser(cafe, { method: 'GET', url: `${base(cafe)}/tickets` })).body;
    for (const [label, payload] of cases) {
      const answer = await put(payload);
      expectRefused(label, answer);
    }
    expect((await browser(cafe, { method: 'GET', url: `${base(cafe)}/tickets` })).body).toBe(before);
  }, 120_000);

  it('check-in: a NUL, a long code, a number, unknown keys get a 4xx', async () => {
    for (const payload of [
      { code: 'A'.repeat(19) + '\u0000' },
      { code: 'A'.repeat(10_000) },
      { code: 12345 },
      { code: null },
      {},
      { code: 'K7QM2X9D4RTV8W1HZP3C', x: 1 },
    ])
      expectRefused(
        JSON.stringify(payload).slice(0, 60),
        await inject({
          method: 'POST',
          url: `/api/v1/orgs/${cafe.handle}/tickets/check-in`,
          headers: bearer(cafe.staffKey),
          payload,
        }),
      );
  });
});

describe('provider webhooks replayed and forged', () => {
  async function paidCheckout(shop: Shop) {
    const created = (await checkout(shop, { lines: [{ item_id: shop.itemId }] })).json();
    const body = stripeEvent('checkout.session.completed', {
      id: 'cs_test',
      object: 'checkout.session',
      amount_total: created.total_minor,
      currency: 'usd',
      payment_intent: `pi_${created.public_token.slice(4, 20)}`,
      payment_status: 'paid',
      metadata: { ctk_checkout: created.public_token },
    });
    return { created, body };
  }

  it('the same delivery twice is applied once; an old timestamp, 1,000 v1 entries, a 10 MB body are refused', async () => {
    const { created, body } = await paidCheckout(cafe);
    const signature = stripeSignature(cafe.secret, body);
    const first = await deliver(cafe.handle, body, signature);
    expect(first.json()).toMatchObject({ outcome: 'applied', duplicate: false });
    // The very same bytes again are a replay; the provider's retry, signed anew, a duplicate that changes nothing.
    expectError(await deliver(cafe.handle, body, signature), 401, 'invalid_signature');
    const retries = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        deliver(cafe.handle, body, stripeSignature(cafe.secret, body, Math.floor(Date.now() / 1000) - 100 - i)),
      ),
    );
    for (const retry of retries) expect(retry.json()).toMatchObject({ outcome: 'applied', duplicate: true });

    const { body: fresh } = await paidCheckout(cafe);
    const old = stripeSignature(cafe.secret, fresh, Math.floor(Date.now() / 1000) - 3600);
    expectError(await deliver(cafe.handle, fresh, old), 401, 'invalid_signature');
    const future = stripeSignature(cafe.secret, fresh, Math.floor(Date.now() / 1000) + 3600);
    expectError(await deliver(cafe.handle, fresh, future), 401, 'invalid_signature');
    const t = Math.floor(Date.now() / 1000);
    const many = `t=${t},${Array.from({ length: 1000 }, () => `v1=${randomBytes(32).toString('hex')}`).join(',')}`;
    expectRefused('1000 v1', await deliver(cafe.handle, fresh, many));
    const manyT = `${Array.from({ length: 1000 }, () => `t=${t}`).join(',')},v1=${randomBytes(32).toString('hex')}`;
    expectRefused('1000 t', await deliver(cafe.handle, fresh, manyT));
    for (const weird of ['', 't=', 'v1=', `t=abc,v1=${'0'.repeat(64)}`, `t=${t}\u0000,v1=00`, 't=1e400,v1=zz', ',,,,', '='.repeat(8000)])
      expectRefused(`signature ${JSON.stringify(weird).slice(0, 30)}`, await deliver(cafe.handle, fresh, weird));
    const huge = `{"pad":"${'x'.repeat(10 * 1024 * 1024)}"}`;
    expectRefused('10 MB', await deliver(cafe.handle, huge, stripeSignature(cafe.secret, huge)));
    // Another organisation's secret, and a delivery for this org signed with theirs.
    expectError(await deliver(cafe.handle, fresh, stripeSignature(other.secret, fresh)), 401, 'invalid_signature');
    const status = await browser(cafe, { method: 'GET', url: `${base(cafe)}/checkout/${created.public_token}/status` });
    expect(status.json().status).toBe('paid');
  }, 60_000);

  it('signed bodies of the wrong shape are refused or ignored with a 4xx or 200, never a 500', async () => {
    const { created } = await paidCheckout(cafe);
    const bodies = [
      '[]',
      '"x"',
      'null',
      '{}',
      '{"type":1}',
      JSON.stringify({ id: 'evt_1', type: 'checkout.session.completed', data: null }),
      JSON.stringify({ id: 'evt_2', type: 'checkout.session.completed', data: { object: { amount_total: 'all', currency: 7 } } }),
      JSON.stringify({
        id: `evt_${randomBytes(6).toString('hex')}`,
        type: 'checkout.session.completed',
        data: { object: { amount_total: 2 ** 60, currency: 'usd', metadata: { ctk_checkout: created.public_token } } },
      }),
      JSON.stringify({
        id: `evt_${randomBytes(6).toString('hex')}`,
        type: 'checkout.session.completed',
        data: { object: { amount_total: -5, currency: 'usd', metadata: { ctk_checkout: created.public_token } } },
      }),
      JSON.stringify({
        id: `evt_${randomBytes(6).toString('hex')}\u0000`,
        type: 'checkout.session.completed\u0000',
        data: { object: { amount_total: 1, currency: 'usd', metadata: { ctk_checkout: `${created.public_token}\u0000` } } },
      }),
      JSON.stringify({ id: 'e'.repeat(100_000), type: 'charge.refunded', data: { object: {} } }),
      '{"id": "evt_dup", "id": "evt_dup2", "type": "x"}',
      '{"lines": [',
    ];
    for (const body of bodies) {
      const answer = await deliver(cafe.handle, body, stripeSignature(cafe.secret, body));
      expect({
        body: body.slice(0, 80),
        status: answer.statusCode < 500 ? 'ok' : answer.statusCode,
        answer: answer.body.slice(0, 300),
      }).toMatchObject({
        status: 'ok',
      });
      if (answer.statusCode >= 400) expectRefused(body.slice(0, 60), answer);
    }
    const status = await browser(cafe, { method: 'GET', url: `${base(cafe)}/checkout/${created.public_token}/status` });
    expect(status.json().status).toBe('pending');
  }, 60_000);

  it('provider secrets: odd bytes and lengths refused, unknown providers 4xx', async () => {
    const put = (provider: string, payload: unknown) =>
      inject({
        method: 'PUT',
        url: `/api/v1/orgs/${cafe.handle}/payment-providers/${provider}`,
        headers: { ...bearer(cafe.key), 'content-type': 'application/json' },
        payload: JSON.stringify(payload),
      });
    for (const [label, provider, payload] of [
      ['NUL in secret', 'card-provider', { webhook_secret: 'whsec_\u0000abc0123456789' }],
      ['newline in secret', 'card-provider', { webhook_secret: 'whsec_abc\n0123456789' }],
      ['long secret', 'card-provider', { webhook_secret: `whsec_${'a'.repeat(100_000)}` }],
      ['number secret', 'card-provider', { webhook_secret: 123 }],
      ['unknown key', 'card-provider', { webhook_secret: 'whsec_abcdefghijklmnop', enabled: true }],
      ['unknown provider', 'paypal', { webhook_secret: 'whsec_abcdefghijklmnop' }],
      ['provider upper', 'CARD-PROVIDER', { webhook_secret: 'whsec_abcdefghijklmnop' }],
    ] as const)
      expectRefused(label, await put(provider, payload));
    // The secret still works.
    const { body } = await paidCheckout(cafe);
    expect((await deliver(cafe.handle, body, stripeSignature(cafe.secret, body))).json()).toMatchObject({ outcome: 'applied' });
  });
});

describe('CORS preflights', () => {
  it('a commerce route allows any origin; a staff route and the admin ticket routes give no allow-origin', async () => {
    const preflight = (url: string, method: string, headers = 'x-commerce-key') =>
      inject({
        method: 'OPTIONS',
        url,
        headers: { origin: ORIGIN, 'access-control-request-method': method, 'access-control-request-headers': headers },
      });
    for (const [url, method] of [
      [`${base(cafe)}/checkout`, 'POST'],
      [`${base(cafe)}/tickets/checkout`, 'POST'],
      [`${base(cafe)}/tickets`, 'GET'],
      [`${base(cafe)}/catalog/${cafe.itemId}`, 'GET'],
    ]) {
      const answer = await preflight(url!, method!);
      expect({ url, allow: answer.headers['access-control-allow-origin'] }).toEqual({ url, allow: '*' });
    }
    for (const [url, method] of [
      [`/api/v1/orgs/${cafe.handle}/tickets/catalog`, 'PUT'],
      [`/api/v1/orgs/${cafe.handle}/tickets/orders`, 'GET'],
      [`/api/v1/orgs/${cafe.handle}/tickets/check-in`, 'POST'],
      [`/api/v1/orgs/${cafe.handle}/commerce-key`, 'POST'],
      [`/api/v1/orgs/${cafe.handle}/payment-providers/card-provider`, 'PUT'],
      [`/api/v1/orgs/${cafe.handle}/payment-providers/events`, 'GET'],
      ['/api/webhooks/card-provider', 'POST'],
    ]) {
      const answer = await preflight(url!, method!, 'authorization');
      expect({ url, allow: answer.headers['access-control-allow-origin'] }).toEqual({ url, allow: undefined });
      expect(answer.statusCode).not.toBe(500);
    }
  });
});

describe('wallet passes', () => {
  it("of another customer's card are not found, and odd card ids are refused", async () => {
    const customer = await onboard(stack.gateway, uniqueName('Pass holder'));
    const stranger = await onboard(stack.gateway, uniqueName('Stranger'));
    const program = { stamp_rule: 'visit', stamps_for_reward: 8, reward: 'A free coffee' };
    await inject({ method: 'PUT', url: `/api/v1/orgs/${cafe.handle}/loyalty-program`, headers: bearer(cafe.key), payload: program });
    const joined = await inject({
      method: 'POST',
      url: '/api/v1/loyalty-cards',
      headers: bearer(customer.key),
      payload: { org_handle: cafe.handle },
    });
    expect(joined.statusCode, joined.body).toBe(201);
    const id = joined.json().id;
    for (const kind of ['apple', 'google']) {
      expectError(
        await inject({ method: 'GET', url: `/api/v1/passes/coffee/${id}/${kind}`, headers: bearer(stranger.key) }),
        404,
        'not_found',
      );
      expectRefused(
        `${kind} upper`,
        await inject({ method: 'GET', url: `/api/v1/passes/coffee/${id.toUpperCase()}x/${kind}`, headers: bearer(customer.key) }),
      );
      expectRefused(`${kind} none`, await inject({ method: 'GET', url: `/api/v1/passes/coffee/${id}/${kind}` }));
      expectRefused(
        `${kind} commerce key`,
        await inject({ method: 'GET', url: `/api/v1/passes/coffee/${id}/${kind}`, headers: { 'x-commerce-key': cafe.commerceKey } }),
      );
    }
  });
});

describe('races and odd requests on one resource', () => {
  it('20 rotations of the commerce key at once leave exactly one working key', { tags: ['concurrency'] }, async () => {
    const rotating = await shop('Rotating keys');
    const rotations = await Promise.all(
      Array.from({ length: 20 }, () =>
        inject({ method: 'POST', url: `/api/v1/orgs/${rotating.handle}/commerce-key`, headers: bearer(rotating.key) }),
      ),
    );
    for (const rotation of rotations) expect(rotation.statusCode).toBeLessThan(300);
    const keys = new Set(rotations.map((rotation) => rotation.json().commerce_public_key as string));
    let working = 0;
    for (const key of keys)
      if ((await browser({ commerceKey: key }, { method: 'GET', url: base(rotating) })).statusCode === 200) working += 1;
    expect(working).toBe(1);
  });

  it('20 identical catalog replacements at once leave one event, not twenty', { tags: ['concurrency'] }, async () => {
    const venue = await shop('Race venue');
    const puts = await Promise.all(
      Array.from({ length: 20 }, () =>
        inject({
          method: 'PUT',
          url: `/api/v1/orgs/${venue.handle}/tickets/catalog`,
          headers: bearer(venue.key),
          payload: {
            events: [
              { ...jazzNight(10), id: venue.eventId, ticket_types: [{ id: venue.standing, ...jazzNight(10).ticket_types[0] }] },
              { ...jazzNight(5), name: 'Late show' },
            ],
          },
        }),
      ),
    );
    for (const put of puts) expect(put.statusCode, put.body).toBeLessThan(500);
    const list = (await browser(venue, { method: 'GET', url: `${base(venue)}/tickets` })).json();
    expect(list.events.map((e: { name: string }) => e.name).sort()).toEqual(['Jazz night', 'Late show']);
  });

  it("a cursor of another organisation's list reads nothing of theirs", async () => {
    for (let i = 0; i < 2; i += 1)
      expect((await buyTickets(other, { lines: [{ ticket_type_id: other.standing, quantity: 1 }] })).statusCode).toBe(201);
    const theirs = await inject({ method: 'GET', url: `/api/v1/orgs/${other.handle}/tickets/orders?limit=1`, headers: bearer(other.key) });
    const cursor = theirs.json().next_cursor;
    expect(cursor).toEqual(expect.any(String));
    const mine = await inject({
      method: 'GET',
      url: `/api/v1/orgs/${cafe.handle}/tickets/orders?limit=100&cursor=${cursor}`,
      headers: bearer(cafe.key),
    });
    expect(mine.statusCode).toBeLessThan(500);
    const theirOrders = (
      await inject({ method: 'GET', url: `/api/v1/orgs/${other.handle}/tickets/orders?limit=100`, headers: bearer(other.key) })
    ).json();
    for (const order of theirOrders.data) expect(mine.body).not.toContain(order.order_number);
  });

  it('repeated query keys, deep JSON, a wrong content type and odd idempotency keys get a 4xx', async () => {
    expectRefused(
      'two orgs',
      await inject({
        method: 'POST',
        url: `/api/webhooks/card-provider?org=${cafe.handle}&org=${other.handle}`,
        payload: '{}',
        headers: { 'content-type': 'application/json', 'stripe-signature': stripeSignature(cafe.secret, '{}') },
      }),
    );
    expectRefused(
      'two limits',
      await inject({ method: 'GET', url: `/api/v1/orgs/${cafe.handle}/tickets/orders?limit=1&limit=2`, headers: bearer(cafe.key) }),
    );
    for (const query of ['limit=0', 'limit=-1', 'limit=101', 'limit=1e3', 'limit=0x10', 'cursor=', 'outcome=parked&outcome=applied']) {
      for (const path of query.startsWith('outcome') ? ['payment-providers/events'] : ['tickets/orders', 'payment-providers/events']) {
        const answer = await inject({ method: 'GET', url: `/api/v1/orgs/${cafe.handle}/${path}?${query}`, headers: bearer(cafe.key) });
        if (answer.statusCode !== 200 || query !== 'cursor=') expectRefused(`${path}?${query}`, answer, 'validation_failed');
      }
    }
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    expectRefused(
      'deep checkout',
      await browser(cafe, {
        method: 'POST',
        url: `${base(cafe)}/checkout`,
        headers: { 'content-type': 'application/json' },
        payload: `{"lines":${deep}}`,
      }),
    );
    const nested = `${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}`;
    const deepBody = `{"id":"evt_deep","type":"checkout.session.completed","data":{"object":{"metadata":${nested}}}}`;
    const deepAnswer = await deliver(cafe.handle, deepBody, stripeSignature(cafe.secret, deepBody));
    expect({ status: deepAnswer.statusCode < 500, body: deepAnswer.body.slice(0, 200) }).toMatchObject({ status: true });
    expectRefused(
      'text/plain',
      await browser(cafe, {
        method: 'POST',
        url: `${base(cafe)}/checkout`,
        headers: { 'content-type': 'text/plain' },
        payload: JSON.stringify({ lines: [{ item_id: cafe.itemId }] }),
      }),
    );
    for (const key of ['k'.repeat(10_000), 'key\u0007', ' ']) {
      const answer = await browser(cafe, {
        method: 'POST',
        url: `${base(cafe)}/checkout`,
        headers: { 'idempotency-key': key },
        payload: { lines: [{ item_id: cafe.itemId }] },
      });
      expectRefused(`idempotency ${JSON.stringify(key).slice(0, 20)}`, answer);
    }
  });
});

describe('totals past the ceiling', () => {
  it('an order above 10^12 minor units is refused with 422, holding no seat and leaving nothing half made', async () => {
    const dear = await shop('Dear venue');
    const item = await inject({
      method: 'POST',
      url: `/api/v1/orgs/${dear.handle}/items`,
      headers: bearer(dear.key),
      payload: { name: 'Gold latte', price_cents: 10 ** 12 },
    });
    expect(item.statusCode, item.body).toBe(201);
    expectRefused('items', await checkout(dear, { lines: [{ item_id: item.json().id, quantity: 10_000 }] }), 'validation_failed');
    const catalog = await inject({
      method: 'PUT',
      url: `/api/v1/orgs/${dear.handle}/tickets/catalog`,
      headers: bearer(dear.key),
      payload: { events: [{ ...jazzNight(10), ticket_types: [{ name: 'Gold', price_minor: 10 ** 12, currency: 'USD', capacity: 10 }] }] },
    });
    expect(catalog.statusCode, catalog.body).toBe(200);
    const gold = catalog.json().events[0].ticket_types[0].id;
    expectRefused('tickets', await buyTickets(dear, { lines: [{ ticket_type_id: gold, quantity: 2 }] }), 'validation_failed');
    const list = (await browser(dear, { method: 'GET', url: `${base(dear)}/tickets` })).json();
    expect(list.events[0].ticket_types[0].available).toBe(10);
    const orders = await inject({ method: 'GET', url: `/api/v1/orgs/${dear.handle}/tickets/orders`, headers: bearer(dear.key) });
    expect(orders.json().data).toEqual([]);
  });
});

describe('one checkout paid twice', () => {
  it('paid in bitcoin, a card payment for it afterwards is parked for the merchant, not booked a second time', async () => {
    const twice = await shop('Twice Cafe');
    const created = (await checkout(twice, { lines: [{ item_id: twice.itemId }] })).json();
    const request = (await inject({ method: 'GET', url: new URL(created.payment_request_url).pathname })).json();
    const tx = await stack.paying(
      request.outputs.map((output: { script: string; amount: number }) => ({ script: output.script, satoshis: output.amount })),
    );
    const ack = await inject({
      method: 'POST',
      url: new URL(request.paymentUrl).pathname,
      payload: { transaction: tx.toHex(), merchantData: request.merchantData },
    });
    expect(ack.json().error).toBe(0);
    const body = stripeEvent('checkout.session.completed', {
      id: 'cs_test_twice',
      object: 'checkout.session',
      amount_total: created.total_minor,
      currency: 'usd',
      payment_intent: `pi_${created.public_token.slice(4, 20)}`,
      payment_status: 'paid',
      metadata: { ctk_checkout: created.public_token },
    });
    const answer = await deliver(twice.handle, body, stripeSignature(twice.secret, body));
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toMatchObject({ outcome: 'parked', duplicate: false });
    const status = await browser(twice, { method: 'GET', url: `${base(twice)}/checkout/${created.public_token}/status` });
    expect(status.json()).toMatchObject({ status: 'paid', paid_satoshis: created.satoshis });
    const events = await inject({
      method: 'GET',
      url: `/api/v1/orgs/${twice.handle}/payment-providers/events?outcome=parked`,
      headers: bearer(twice.key),
    });
    expect(events.body).toContain(created.public_token);
    // The sale is in the books once, from pos, and never from commerce.
    const ledger = await eventually(async () => {
      const entries = (await inject({ method: 'GET', url: `/api/v1/orgs/${twice.handle}/ledger`, headers: bearer(twice.key) })).json().data;
      expect(entries.some((entry: { txid: string | null }) => entry.txid === tx.id('hex'))).toBe(true);
      return entries;
    });
    expect(ledger.filter((entry: { source_service: string }) => entry.source_service === 'commerce')).toEqual([]);
  }, 60_000);
});

describe('one checkout paid by card', () => {
  it('takes no bitcoin payment afterwards', async () => {
    const byCard = await shop('Card first');
    const created = (await checkout(byCard, { lines: [{ item_id: byCard.itemId }] })).json();
    const body = stripeEvent('checkout.session.completed', {
      id: 'cs_test_card_first',
      object: 'checkout.session',
      amount_total: created.total_minor,
      currency: 'usd',
      payment_intent: `pi_${created.public_token.slice(4, 20)}`,
      payment_status: 'paid',
      metadata: { ctk_checkout: created.public_token },
    });
    expect((await deliver(byCard.handle, body, stripeSignature(byCard.secret, body))).json()).toMatchObject({ outcome: 'applied' });
    const request = await inject({ method: 'GET', url: new URL(created.payment_request_url).pathname });
    expectRefused('payment request', request);
  });
});

describe('tickets paid through a card provider', () => {
  const cardPayment = (created: { public_token: string; total_minor: number }) =>
    stripeEvent('checkout.session.completed', {
      id: 'cs_test_tickets',
      object: 'checkout.session',
      amount_total: created.total_minor,
      currency: 'usd',
      payment_intent: `pi_${created.public_token.slice(4, 20)}`,
      payment_status: 'paid',
      metadata: { ctk_checkout: created.public_token },
    });

  it('are issued to the token holder like tickets paid in bitcoin', async () => {
    const club = await shop('Card club', 5);
    const created = (await buyTickets(club, { lines: [{ ticket_type_id: club.standing, quantity: 2 }] })).json();
    const body = cardPayment(created);
    expect((await deliver(club.handle, body, stripeSignature(club.secret, body))).json()).toMatchObject({ outcome: 'applied' });
    const status = (await browser(club, { method: 'GET', url: `${base(club)}/checkout/${created.public_token}/status` })).json();
    expect(status.status).toBe('paid');
    expect(status.tickets).toHaveLength(2);
    const list = (await browser(club, { method: 'GET', url: `${base(club)}/tickets` })).json();
    expect(list.events[0].ticket_types[0].available).toBe(3);
  });

  it('once refunded in full at the provider, admit nobody at the door', async () => {
    const club = await shop('Refund club', 5);
    const created = (await buyTickets(club, { lines: [{ ticket_type_id: club.standing, quantity: 1 }] })).json();
    const body = cardPayment(created);
    expect((await deliver(club.handle, body, stripeSignature(club.secret, body))).json()).toMatchObject({ outcome: 'applied' });
    const [ticket] = (await browser(club, { method: 'GET', url: `${base(club)}/checkout/${created.public_token}/status` })).json().tickets;
    const refund = stripeEvent('charge.refunded', {
      id: 'ch_club',
      object: 'charge',
      amount: created.total_minor,
      amount_refunded: created.total_minor,
      currency: 'usd',
      payment_intent: `pi_${created.public_token.slice(4, 20)}`,
      refunded: true,
    });
    expect((await deliver(club.handle, refund, stripeSignature(club.secret, refund))).json()).toMatchObject({ outcome: 'applied' });
    const admitted = await inject({
      method: 'POST',
      url: `/api/v1/orgs/${club.handle}/tickets/check-in`,
      headers: bearer(club.staffKey),
      payload: { code: ticket.code },
    });
    expectError(admitted, 409, 'failed_precondition');
    expect(admitted.json().error.details).toMatchObject({ reason: 'refunded' });
  });

  it('a late card payment of an expired checkout whose seat was sold again issues nothing: no oversell', async () => {
    const room = await shop('One seat room', 1);
    const late = (await buyTickets(room, { lines: [{ ticket_type_id: room.standing, quantity: 1 }] })).json();
    stack.advance(901);
    try {
      expect((await browser(room, { method: 'GET', url: `${base(room)}/checkout/${late.public_token}/status` })).json().status).toBe(
        'expired',
      );
      const second = await buyTickets(room, { lines: [{ ticket_type_id: room.standing, quantity: 1 }] });
      expect(second.statusCode).toBe(201);
      const body = cardPayment(late);
      const answer = await deliver(room.handle, body, stripeSignature(room.secret, body, Math.floor((Date.now() + 901_000) / 1000)));
      expect(answer.statusCode, answer.body).toBe(200);
      // The money is booked (decision 0020: a late payment whose seats are gone is unfulfilled, the merchant refunds).
      expect(answer.json().outcome).toBe('applied');
      const status = (await browser(room, { method: 'GET', url: `${base(room)}/checkout/${late.public_token}/status` })).json();
      expect(status).toMatchObject({ status: 'paid', tickets: [] });
      const orders = (await inject({ method: 'GET', url: `/api/v1/orgs/${room.handle}/tickets/orders`, headers: bearer(room.key) })).json();
      expect(orders.data.map((order: { order_number: string; hold: string }) => [order.order_number, order.hold])).toEqual([
        [second.json().order_number, 'held'],
        [late.order_number, 'unfulfilled'],
      ]);
      const list = (await browser(room, { method: 'GET', url: `${base(room)}/tickets` })).json();
      expect(list.events[0].ticket_types[0].available).toBe(0);
    } finally {
      stack.advance(-901);
    }
  });
});

describe('idempotency keys of shoppers', () => {
  it("one shopper's key on another merchant's route replays nothing of the first merchant", async () => {
    const headers = { 'idempotency-key': `probe-${randomBytes(6).toString('hex')}` };
    const payload = { lines: [{ ticket_type_id: cafe.standing, quantity: 1 }] };
    const remoteAddress = '203.0.113.77';
    const first = await browser(cafe, { method: 'POST', url: `${base(cafe)}/tickets/checkout`, headers, payload, remoteAddress });
    expect(first.statusCode).toBe(201);
    const elsewhere = await browser(other, { method: 'POST', url: `${base(other)}/tickets/checkout`, headers, payload, remoteAddress });
    expectError(elsewhere, 422, 'validation_failed');
    expect(elsewhere.body).not.toContain(first.json().public_token);
  });

  it('20 identical checkouts at once with one key make one checkout', { tags: ['concurrency'] }, async () => {
    // A shop of its own each run: the test is repeated (decision 0030), and a shop's open checkouts each hold an
    // address, up to the anonymous cap.
    const racing = await shop('Racing cafe');
    const headers = { 'idempotency-key': `race-${randomBytes(6).toString('hex')}` };
    const remoteAddress = uniqueClientAddress();
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        browser(racing, {
          method: 'POST',
          url: `${base(racing)}/checkout`,
          headers,
          payload: { lines: [{ item_id: racing.itemId }] },
          remoteAddress,
        }),
      ),
    );
    const tokens = new Set(answers.filter((a) => a.statusCode === 201).map((a) => a.json().public_token));
    expect(tokens.size).toBe(1);
    for (const answer of answers.filter((a) => a.statusCode !== 201)) expectRefused('concurrent', answer);
  });
});
