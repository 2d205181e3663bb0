import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '@ctk/shared/testing';
import { addMember, bearer, type Onboarded } from './harness.js';
import { startOrderStack } from './order-harness.js';
import { expectError, uniqueClientAddress } from './support.js';

/*
 * Tickets through the gateway, commerce, pos, p2p and books on a local chain (decision 0020): the admin's
 * catalog and orders, the shopper's list and checkout with the commerce key, the buyer's tickets in the
 * checkout status once paid, their QR codes, and staff checking them in at the door.
 */

let stack: Awaited<ReturnType<typeof startOrderStack>>;
beforeAll(async () => {
  stack = await startOrderStack({ commerce: true });
}, 90_000);
afterAll(() => stack?.close());

const inject = (options: InjectOptions) => stack.gateway.app.inject(options);
const ORIGIN = 'https://shop.blue-bottle.example';
const nextYear = new Date().getFullYear() + 1;

type Shop = Onboarded & { commerceKey: string; staffKey: string; standing: string; seated: string; eventId: string };

function jazzNight(standing: number, ids: { event?: string; standing?: string; seated?: string } = {}) {
  return {
    id: ids.event,
    name: 'Jazz night',
    starts_at: `${nextYear}-06-12T19:00:00Z`,
    ends_at: `${nextYear}-06-12T23:00:00Z`,
    venue: 'Blue Bottle Cafe, back room',
    ticket_types: [
      { id: ids.standing, name: 'Standing', price_minor: 2500, currency: 'USD', capacity: standing },
      ...(ids.seated === '' ? [] : [{ id: ids.seated, name: 'Seated', price_minor: 4000, currency: 'USD', capacity: 20 }]),
    ],
  };
}

const putCatalog = (shop: Onboarded, payload: object, key = shop.key) =>
  inject({ method: 'PUT', url: `/api/v1/orgs/${shop.handle}/tickets/catalog`, headers: bearer(key), payload });

/** A merchant with a wallet, a commerce key, a staff member, and a jazz night (standing: `standing` places, seated: 20). */
async function shop(label: string, standing = 10): Promise<Shop> {
  const owner = await stack.walletOrg(label);
  const key = await inject({ method: 'POST', url: `/api/v1/orgs/${owner.handle}/commerce-key`, headers: bearer(owner.key) });
  const staff = await addMember(stack.gateway, owner, 'staff');
  const catalog = await putCatalog(owner, { events: [jazzNight(standing)] });
  expect(catalog.statusCode, catalog.body).toBe(200);
  const [event] = catalog.json().events;
  return {
    ...owner,
    commerceKey: key.json().commerce_public_key,
    staffKey: staff.key,
    eventId: event.id,
    standing: event.ticket_types[0].id,
    seated: event.ticket_types[1].id,
  };
}

const browser = (shop: Pick<Shop, 'commerceKey'>, options: InjectOptions) =>
  inject({ ...options, headers: { origin: ORIGIN, 'x-commerce-key': shop.commerceKey, ...options.headers } });
const base = (shop: Pick<Shop, 'handle'>) => `/api/v1/commerce/${shop.handle}`;
const list = async (shop: Shop) => (await browser(shop, { method: 'GET', url: `${base(shop)}/tickets` })).json();
const buy = (shop: Shop, lines: { ticket_type_id: string; quantity?: number }[] | unknown) =>
  browser(shop, { method: 'POST', url: `${base(shop)}/tickets/checkout`, payload: { lines } as object });
const buyFrom = (remoteAddress: string, shop: Shop, lines: { ticket_type_id: string; quantity?: number }[]) =>
  browser(shop, { method: 'POST', url: `${base(shop)}/tickets/checkout`, payload: { lines }, remoteAddress });
const statusOf = async (shop: Shop, token: string) =>
  (await browser(shop, { method: 'GET', url: `${base(shop)}/checkout/${token}/status` })).json();
const checkIn = (shop: Shop, code: string, key = shop.staffKey) =>
  inject({ method: 'POST', url: `/api/v1/orgs/${shop.handle}/tickets/check-in`, headers: bearer(key), payload: { code } });
const available = async (shop: Shop, typeId: string) =>
  (await list(shop)).events.flatMap((e: { ticket_types: { id: string }[] }) => e.ticket_types).find((t: { id: string }) => t.id === typeId)
    ?.available;

/** Pays a checkout's order by BIP270, as a wallet does. */
async function pay(checkout: { payment_request_url: string }) {
  const request = (await inject({ method: 'GET', url: new URL(checkout.payment_request_url).pathname })).json();
  const tx = await stack.paying(
    request.outputs.map((output: { script: string; amount: number }) => ({ script: output.script, satoshis: output.amount })),
  );
  const ack = await inject({
    method: 'POST',
    url: new URL(request.paymentUrl).pathname,
    payload: { transaction: tx.toHex(), merchantData: request.merchantData },
  });
  expect(ack.json().error).toBe(0);
}

let club: Shop;
beforeAll(async () => {
  club = await shop('Jazz Club');
}, 30_000);

describe('the ticket catalog', () => {
  it('is the admin’s: staff are refused, and the answer counts what each type has sold, held and left', async () => {
    expectError(await putCatalog(club, { events: [jazzNight(10)] }, club.staffKey), 403, 'forbidden');
    expectError(
      await inject({ method: 'GET', url: `/api/v1/orgs/${club.handle}/tickets/orders`, headers: bearer(club.staffKey) }),
      403,
      'forbidden',
    );
    const other = await shop('Other club');
    // Another organisation's type id is not this catalog's.
    const refused = await putCatalog(club, { events: [jazzNight(10, { standing: other.standing })] });
    expectError(refused, 422, 'validation_failed');
    expect(refused.json().error.details.field).toBe('events.0.ticket_types.0.id');
    for (const [payload, field] of [
      [{ events: [{ ...jazzNight(10), ends_at: `${nextYear}-06-12T18:00:00Z` }] }, 'events.0.ends_at'],
      [
        { events: [{ ...jazzNight(10), ticket_types: [{ name: 'Free', price_minor: 0, currency: 'USD', capacity: 1 }] }] },
        'events.0.ticket_types.0.price_minor',
      ],
      [
        { events: [{ ...jazzNight(10), ticket_types: [{ name: 'A', price_minor: 1, currency: 'usd', capacity: 1 }] }] },
        'events.0.ticket_types.0.currency',
      ],
      [{ events: [{ ...jazzNight(10), capacity: 5 }] }, 'events.0.capacity'],
    ] as const) {
      const answer = await putCatalog(club, payload);
      expectError(answer, 422, 'validation_failed');
      expect(answer.json().error.details.field).toBe(field);
    }
  });

  it('refuses to remove a type with tickets held, or to lower its capacity below them, with 409', async () => {
    const venue = await shop('Small venue', 5);
    expect((await buy(venue, [{ ticket_type_id: venue.standing, quantity: 3 }])).statusCode).toBe(201);
    // Seated has nothing sold nor held: it goes.
    const removal = await putCatalog(venue, { events: [jazzNight(5, { event: venue.eventId, standing: venue.standing, seated: '' })] });
    expect(removal.statusCode).toBe(200);
    expect(removal.json().events[0].ticket_types).toEqual([
      { id: venue.standing, name: 'Standing', price_minor: 2500, currency: 'USD', capacity: 5, sold: 0, held: 3, available: 2 },
    ]);
    const balcony = { name: 'Balcony', price_minor: 3000, currency: 'USD', capacity: 10 };
    const removeStanding = await putCatalog(venue, { events: [{ ...jazzNight(5, { event: venue.eventId }), ticket_types: [balcony] }] });
    expectError(removeStanding, 409, 'failed_precondition');
    expect(removeStanding.json().error.details).toMatchObject({ ticket_type_id: venue.standing, sold: 0, held: 3 });
    const lower = await putCatalog(venue, { events: [jazzNight(2, { event: venue.eventId, standing: venue.standing, seated: '' })] });
    expectError(lower, 409, 'failed_precondition');
    expect(lower.json().error.details.field).toBe('events.0.ticket_types.0.capacity');
    expect(await available(venue, venue.standing)).toBe(2);
  });
});

describe('a ticket checkout', () => {
  it('is priced from the ticket catalog: a price from the browser is refused; the list shows what is left', async () => {
    for (const extra of [{ price_minor: 1 }, { unit_price_minor: 1 }]) {
      const refused = await buy(club, [{ ticket_type_id: club.standing, quantity: 1, ...extra }]);
      expectError(refused, 422, 'validation_failed');
    }
    const created = await buy(club, [
      { ticket_type_id: club.standing, quantity: 2 },
      { ticket_type_id: club.seated, quantity: 1 },
    ]);
    expect(created.statusCode, created.body).toBe(201);
    const body = created.json();
    expect(body).toMatchObject({ status: 'pending', currency: 'USD', subtotal_minor: 9000, total_minor: 9000, satoshis: 900_000 });
    expect(body.public_token).toMatch(/^cko_[A-Za-z0-9_-]{32}$/);
    expect(body.lines).toEqual([
      { ticket_type_id: club.standing, name: 'Jazz night: Standing', quantity: 2, unit_price_minor: 2500, tax_minor: 0, total_minor: 5000 },
      { ticket_type_id: club.seated, name: 'Jazz night: Seated', quantity: 1, unit_price_minor: 4000, tax_minor: 0, total_minor: 4000 },
    ]);
    const order = (await inject({ method: 'GET', url: `/api/pos/orders/${body.order_number}` })).json();
    for (const field of ['total_minor', 'satoshis', 'bip21_uri', 'payment_request_url', 'expires_at'])
      expect(body[field], field).toEqual(order[field]);
    expect(created.headers['access-control-allow-origin']).toBe('*');
    const events = (await list(club)).events;
    expect(events).toEqual([
      {
        id: club.eventId,
        name: 'Jazz night',
        starts_at: `${nextYear}-06-12T19:00:00.000Z`,
        ends_at: `${nextYear}-06-12T23:00:00.000Z`,
        venue: 'Blue Bottle Cafe, back room',
        ticket_types: [
          { id: club.standing, name: 'Standing', price_minor: 2500, currency: 'USD', available: 8, sold_out: false },
          { id: club.seated, name: 'Seated', price_minor: 4000, currency: 'USD', available: 19, sold_out: false },
        ],
      },
    ]);
    expect(await statusOf(club, body.public_token)).toMatchObject({ status: 'pending', tickets: [] });
  });

  it(
    'never oversells: 50 checkouts at once for the last 10 places, exactly 10 made (201), the others 409 sold_out',
    { tags: ['concurrency'], timeout: 120_000 },
    async () => {
      const hall = await shop('Full hall', 10);
      // Fifty shoppers, each from their own address (one address may hold only so many seats, decision 0024).
      const answers = await Promise.all(
        Array.from({ length: 50 }, (_, n) => buyFrom(`198.51.100.${n + 1}`, hall, [{ ticket_type_id: hall.standing, quantity: 1 }])),
      );
      expect(answers.filter((a) => a.statusCode === 201)).toHaveLength(10);
      const refused = answers.filter((a) => a.statusCode !== 201);
      for (const answer of refused) expectError(answer, 409, 'sold_out');
      expect(await available(hall, hall.standing)).toBe(0);
      // The checkout rate limit per address (60 a minute) is not what refused them: each refusal says no seat was left.
      expect(refused[0]!.json().error.details).toMatchObject({ field: 'lines[0].ticket_type_id', available: 0 });
    },
  );

  it('gives its places back once it expires', async () => {
    const room = await shop('Tiny room', 2);
    const created = (await buy(room, [{ ticket_type_id: room.standing, quantity: 2 }])).json();
    expectError(await buy(room, [{ ticket_type_id: room.standing, quantity: 1 }]), 409, 'sold_out');
    stack.advance(901);
    try {
      expect(await available(room, room.standing)).toBe(2);
      expect(await statusOf(room, created.public_token)).toMatchObject({ status: 'expired', tickets: [] });
      expect((await buy(room, [{ ticket_type_id: room.standing, quantity: 2 }])).statusCode).toBe(201);
    } finally {
      stack.advance(-901);
    }
  });
});

describe('anonymous holds are bounded (decision 0024)', () => {
  it('one client address holds at most a few seats, for a few minutes: the sale goes on for everyone else', async () => {
    const hall = await shop('Small hall', 10);
    // One checkout may not take all ten seats.
    const greedy = await buyFrom('203.0.113.7', hall, [{ ticket_type_id: hall.standing, quantity: 10 }]);
    expectError(greedy, 422, 'validation_failed');
    expect(greedy.json().error.details).toMatchObject({ field: 'lines', max_seats: 6 });
    // Nor several checkouts from one address: six seats at once at most, across types.
    expect((await buyFrom('203.0.113.7', hall, [{ ticket_type_id: hall.standing, quantity: 4 }])).statusCode).toBe(201);
    expect((await buyFrom('203.0.113.7', hall, [{ ticket_type_id: hall.seated, quantity: 2 }])).statusCode).toBe(201);
    const more = await buyFrom('203.0.113.7', hall, [{ ticket_type_id: hall.standing, quantity: 1 }]);
    expectError(more, 429, 'rate_limited');
    expect(more.json().error.details).toMatchObject({ held_seats: 6, max_seats: 6 });
    // Another shopper still buys.
    expect(await available(hall, hall.standing)).toBe(6);
    expect((await buyFrom('203.0.113.8', hall, [{ ticket_type_id: hall.standing, quantity: 2 }])).statusCode).toBe(201);
    // The seats come back after five minutes, though the order may still be paid (a late payment is sold if seats are free).
    stack.advance(301);
    try {
      expect(await available(hall, hall.standing)).toBe(10);
      expect((await buyFrom('203.0.113.7', hall, [{ ticket_type_id: hall.standing, quantity: 6 }])).statusCode).toBe(201);
    } finally {
      stack.advance(-301);
    }
  });

  it(
    'holds six seats of twenty concurrent checkouts from one address, whatever the types: the count is taken under a lock',
    { tags: ['concurrency'] },
    async () => {
      const hall = await shop('Busy hall', 30);
      const client = uniqueClientAddress();
      // Two seats each: three checkouts hold the six, within the receiving addresses one client may hold (five, decision 0022).
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, n) =>
          buyFrom(client, hall, [{ ticket_type_id: n % 2 === 0 ? hall.standing : hall.seated, quantity: 2 }]),
        ),
      );
      expect(answers.filter((a) => a.statusCode === 201)).toHaveLength(3);
      for (const answer of answers.filter((a) => a.statusCode !== 201)) {
        expectError(answer, 429, 'rate_limited');
        expect(answer.json().error.details).toMatchObject({ max_seats: 6 });
      }
      expect((await available(hall, hall.standing)) + (await available(hall, hall.seated))).toBe(30 + 20 - 6);
    },
  );
});

describe('paid tickets', () => {
  it('are answered to the token holder once paid, with a QR each, listed for the admin, and admit once at the door', async () => {
    const created = (await buy(club, [{ ticket_type_id: club.standing, quantity: 2 }])).json();
    await pay(created);
    const status = await eventually(async () => {
      const read = await statusOf(club, created.public_token);
      expect(read.status).toBe('paid');
      return read;
    });
    expect(status.tickets).toHaveLength(2);
    const [first, second] = status.tickets;
    expect(first).toEqual({
      code: expect.stringMatching(/^[0-9A-HJKMNP-TV-Z]{20}$/),
      event_id: club.eventId,
      event_name: 'Jazz night',
      ticket_type_id: club.standing,
      ticket_type_name: 'Standing',
      qr_url: `${new URL(created.payment_request_url).origin}/api/v1/tickets/${first.code}/qr`,
      checked_in_at: null,
    });
    const qr = await inject({ method: 'GET', url: new URL(first.qr_url).pathname });
    expect(qr.statusCode).toBe(200);
    expect(qr.headers['content-type']).toMatch(/^image\/svg\+xml/);
    expect((await inject({ method: 'GET', url: `${new URL(first.qr_url).pathname}?format=png` })).headers['content-type']).toBe(
      'image/png',
    );
    expectError(await inject({ method: 'GET', url: `/api/v1/tickets/${'0'.repeat(20)}/qr` }), 404, 'not_found');

    const orders = await inject({ method: 'GET', url: `/api/v1/orgs/${club.handle}/tickets/orders?limit=1`, headers: bearer(club.key) });
    expect(orders.statusCode).toBe(200);
    expect(orders.json().data[0]).toMatchObject({ order_number: created.order_number, status: 'paid', hold: 'sold', total_minor: 5000 });
    expect(orders.json().data[0].tickets.map((t: { code: string }) => t.code)).toEqual([first.code, second.code]);
    expect(orders.json().next_cursor).toEqual(expect.any(String));
    const next = await inject({
      method: 'GET',
      url: `/api/v1/orgs/${club.handle}/tickets/orders?limit=1&cursor=${orders.json().next_cursor}`,
      headers: bearer(club.key),
    });
    expect(next.json().data[0].order_number).not.toBe(created.order_number);

    // At the door: staff check the first in (any case), once.
    const admitted = await checkIn(club, first.code.toLowerCase());
    expect(admitted.statusCode).toBe(200);
    expect(admitted.json()).toMatchObject({ code: first.code, ticket_type_name: 'Standing', checked_in_at: expect.any(String) });
    const again = await checkIn(club, first.code);
    expectError(again, 409, 'already_checked_in');
    expect(again.json().error.details.checked_in_at).toBe(admitted.json().checked_in_at);
    expectError(await checkIn(club, 'K7QM2X9D4RTV8W1HZP3C'), 404, 'not_found');
    expectError(await checkIn(club, 'not a code'), 422, 'validation_failed');
    const other = await shop('Elsewhere');
    expectError(await checkIn(other, second.code), 404, 'not_found');

    // 100 check-ins of one code at once: exactly one admits.
    const all = await Promise.all(Array.from({ length: 100 }, () => checkIn(club, second.code)));
    expect(all.filter((a) => a.statusCode === 200)).toHaveLength(1);
    for (const answer of all.filter((a) => a.statusCode !== 200)) expectError(answer, 409, 'already_checked_in');
    expect((await statusOf(club, created.public_token)).tickets.every((t: { checked_in_at: string | null }) => t.checked_in_at)).toBe(true);
  });
});
