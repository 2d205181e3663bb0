import { randomUUID } from 'node:crypto';
import type { TicketEventInput } from '@ctk/proto/ctk/commerce/v1/commerce';
import type { OrgRef } from '@ctk/proto/ctk/common/v1/common';
import { OrderChanged } from '@ctk/proto/ctk/events/v1/order_event';
import { COMMERCE_CONSUMER, ORDER_CHANGED_SUBJECT, type EventMessage } from '@ctk/shared';
import { eventually } from '@ctk/shared/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failure, PUBLIC_URL, startCommerceStack, type CommerceStack } from './commerce-stack.js';

let stack: CommerceStack;
beforeAll(async () => {
  stack = await startCommerceStack();
}, 60_000);
afterAll(() => stack?.close());

const DAY = 24 * 3600 * 1000;
const inDays = (days: number) => new Date(Date.now() + days * DAY).toISOString();

/** A concert next week: standing (capacity as given, $25) and seated (20, $40). */
function concert(standing = 10, fields: Partial<TicketEventInput> = {}): TicketEventInput {
  return {
    id: '',
    name: 'Jazz night',
    startsAt: inDays(7),
    endsAt: inDays(7.2),
    venue: 'Blue Bottle Cafe, back room',
    ticketTypes: [
      { id: '', name: 'Standing', priceMinor: 2500n, currency: 'USD', capacity: standing },
      { id: '', name: 'Seated', priceMinor: 4000n, currency: 'USD', capacity: 20 },
    ],
    ...fields,
  };
}

async function ticketShop(standing = 10) {
  const org = await stack.walletOrg();
  const { events } = await stack.client.replaceTicketCatalog({ org, events: [concert(standing)] });
  const [standingType, seatedType] = events[0]!.ticketTypes;
  return { org, events, standing: standingType!, seated: seatedType! };
}

const buy = (org: OrgRef, ticketTypeId: string, quantity = 1n) =>
  stack.client.createTicketCheckout({ org, lines: [{ ticketTypeId, quantity }], publicUrl: PUBLIC_URL }).then((r) => r.checkout!);
const available = async (org: OrgRef, typeId: string) =>
  (await stack.client.getTicketList({ org })).events.flatMap((e) => e.ticketTypes).find((t) => t.id === typeId)?.available;
const read = (org: OrgRef, publicToken: string) =>
  stack.client.getCheckout({ org, publicToken, publicUrl: PUBLIC_URL }).then((r) => r.checkout!);
/** The checkout once it says `status`: a ticket checkout records its order's change as it arrives (decision 0046). */
const readOnce = (org: OrgRef, publicToken: string, status: string) =>
  eventually(async () => {
    const checkout = await read(org, publicToken);
    expect(checkout.status).toBe(status);
    return checkout;
  });

describe('the ticket catalog', () => {
  it('is replaced as a whole: ids kept when sent back, a type left out removed, the answer with what is left', async () => {
    const { org, events, standing, seated } = await ticketShop();
    expect(events[0]).toMatchObject({ name: 'Jazz night', venue: 'Blue Bottle Cafe, back room' });
    expect(standing).toMatchObject({ name: 'Standing', priceMinor: 2500n, currency: 'USD', capacity: 10, sold: 0, held: 0, available: 10 });
    const replaced = await stack.client.replaceTicketCatalog({
      org,
      events: [
        {
          ...concert(),
          id: events[0]!.id,
          name: 'Jazz night (late set)',
          ticketTypes: [{ id: standing.id, name: 'Standing', priceMinor: 3000n, currency: 'USD', capacity: 12 }],
        },
      ],
    });
    expect(replaced.events).toHaveLength(1);
    expect(replaced.events[0]).toMatchObject({ id: events[0]!.id, name: 'Jazz night (late set)' });
    expect(replaced.events[0]!.ticketTypes).toEqual([expect.objectContaining({ id: standing.id, priceMinor: 3000n, capacity: 12 })]);
    expect((await stack.client.getTicketList({ org })).events[0]!.ticketTypes.map((t) => t.id)).toEqual([standing.id]);
    // The removed type is no longer for sale.
    expect(await failure(buy(org, seated.id))).toMatchObject({ code: 'validation_failed', details: { field: 'lines[0].ticket_type_id' } });
  });

  it.each([
    ['an end before the start', { endsAt: inDays(6) }, 'events.0.ends_at'],
    ['no ticket type', { ticketTypes: [] }, 'events.0.ticket_types'],
    [
      'a price of 0',
      { ticketTypes: [{ id: '', name: 'Free', priceMinor: 0n, currency: 'USD', capacity: 1 }] },
      'events.0.ticket_types.0.price_minor',
    ],
    [
      'a negative capacity',
      { ticketTypes: [{ id: '', name: 'A', priceMinor: 1n, currency: 'USD', capacity: -1 }] },
      'events.0.ticket_types.0.capacity',
    ],
    ['an id not of the catalog', { id: randomUUID() }, 'events.0.id'],
    ['a name on two lines', { name: 'Jazz\nnight' }, 'events.0.name'],
    [
      'a currency without a satoshi rate',
      {
        ticketTypes: [
          { id: '', name: 'Standing', priceMinor: 2500n, currency: 'USD', capacity: 1 },
          { id: '', name: 'Mystery', priceMinor: 2500n, currency: 'XXX', capacity: 1 },
        ],
      },
      'events.0.ticket_types.1.currency',
    ],
    // The catalog's bounds, which the gateway passes on rather than restating.
    ['no name', { name: '' }, 'events.0.name'],
    ['a name of 101 characters', { name: 'n'.repeat(101) }, 'events.0.name'],
    ['a venue of 201 characters', { venue: 'v'.repeat(201) }, 'events.0.venue'],
    ['no ticket type', { ticketTypes: [] }, 'events.0.ticket_types'],
    [
      '21 ticket types',
      { ticketTypes: Array.from({ length: 21 }, (_, i) => ({ id: '', name: `T${i}`, priceMinor: 1n, currency: 'USD', capacity: 1 })) },
      'events.0.ticket_types',
    ],
    [
      'a type name of 61 characters',
      { ticketTypes: [{ id: '', name: 't'.repeat(61), priceMinor: 1n, currency: 'USD', capacity: 1 }] },
      'events.0.ticket_types.0.name',
    ],
    [
      'a price above 10^12',
      { ticketTypes: [{ id: '', name: 'A', priceMinor: 10n ** 12n + 1n, currency: 'USD', capacity: 1 }] },
      'events.0.ticket_types.0.price_minor',
    ],
    [
      'a capacity above a million',
      { ticketTypes: [{ id: '', name: 'A', priceMinor: 1n, currency: 'USD', capacity: 1_000_001 }] },
      'events.0.ticket_types.0.capacity',
    ],
  ])('refuses %s as validation_failed naming the place', async (_, fields, field) => {
    const org = await stack.walletOrg();
    const refused = await failure(stack.client.replaceTicketCatalog({ org, events: [concert(10, fields as Partial<TicketEventInput>)] }));
    expect(refused).toMatchObject({ code: 'validation_failed', details: { field } });
  });

  it('cannot remove a type with seats held or sold, nor lower its capacity below them (409), and nothing changes', async () => {
    const { org, events, standing, seated } = await ticketShop();
    await buy(org, standing.id, 3n);
    const keepSeated = { id: seated.id, name: 'Seated', priceMinor: 4000n, currency: 'USD', capacity: 20 };
    const removal = await failure(
      stack.client.replaceTicketCatalog({ org, events: [{ ...concert(), id: events[0]!.id, ticketTypes: [keepSeated] }] }),
    );
    expect(removal).toMatchObject({ code: 'failed_precondition', details: { ticket_type_id: standing.id, sold: 0, held: 3 } });
    const lower = (capacity: number) =>
      stack.client.replaceTicketCatalog({
        org,
        events: [
          {
            ...concert(),
            id: events[0]!.id,
            ticketTypes: [{ id: standing.id, name: 'Standing', priceMinor: 2500n, currency: 'USD', capacity }, keepSeated],
          },
        ],
      });
    expect(await failure(lower(2))).toMatchObject({ code: 'failed_precondition', details: { field: 'events.0.ticket_types.0.capacity' } });
    expect(await available(org, standing.id)).toBe(7);
    // Down to exactly what is taken: nothing left to sell.
    await lower(3);
    expect(await available(org, standing.id)).toBe(0);
    expect(await failure(buy(org, standing.id))).toMatchObject({ code: 'sold_out', details: { available: 0 } });
    // Another organisation's type is not this catalog's.
    const other = await stack.walletOrg();
    expect(
      await failure(stack.client.replaceTicketCatalog({ org: other, events: [{ ...concert(), ticketTypes: [keepSeated] }] })),
    ).toMatchObject({ code: 'validation_failed', details: { field: 'events.0.ticket_types.0.id' } });
  });

  it('refuses control characters and bidirectional overrides in names and venue (the one text rule of @ctk/shared)', async () => {
    const org = await stack.walletOrg();
    for (const [field, value] of [
      ['events.0.name', { name: 'Spring\u0000concert' }],
      ['events.0.name', { name: 'Spring \u202econcert' }],
      ['events.0.venue', { venue: 'Main hall\u2066' }],
    ] as const)
      expect(await failure(stack.client.replaceTicketCatalog({ org, events: [concert(10, value)] }))).toMatchObject({
        code: 'validation_failed',
        details: { field },
      });
    expect((await stack.client.getTicketList({ org })).events).toEqual([]);
  });

  it('lists only events still to end', async () => {
    const org = await stack.walletOrg();
    await stack.client.replaceTicketCatalog({
      org,
      events: [concert(5, { name: 'Last week', startsAt: inDays(-7), endsAt: inDays(-6.9) }), concert(5)],
    });
    expect((await stack.client.getTicketList({ org })).events.map((e) => e.name)).toEqual(['Jazz night']);
  });

  it('is read whole by its admin, ended events too, each type with what it has sold, held and left', async () => {
    const org = await stack.walletOrg();
    const { events } = await stack.client.replaceTicketCatalog({
      org,
      events: [concert(5, { name: 'Last week', startsAt: inDays(-7), endsAt: inDays(-6.9) }), concert(5)],
    });
    const standing = events[1]!.ticketTypes[0]!;
    await buy(org, standing.id, 2n);
    const catalog = await stack.client.getTicketCatalog({ org });
    expect(catalog.events.map((e) => e.name)).toEqual(['Last week', 'Jazz night']);
    expect(catalog.events[1]!.ticketTypes[0]).toMatchObject({ id: standing.id, capacity: 5, sold: 0, held: 2, available: 3 });
    // Sent back as it is read, the catalog keeps every event and type.
    const again = await stack.client.replaceTicketCatalog({ org, events: catalog.events });
    expect(again.events.flatMap((e) => e.ticketTypes.map((t) => t.id))).toEqual(
      catalog.events.flatMap((e) => e.ticketTypes.map((t) => t.id)),
    );
  });
});

describe('a ticket checkout', () => {
  it('is a pos order of keypad lines priced from the ticket catalog, holding the seats', async () => {
    const { org, standing, seated } = await ticketShop();
    const { checkout } = await stack.client.createTicketCheckout({
      org,
      lines: [
        { ticketTypeId: standing.id, quantity: 2n },
        { ticketTypeId: seated.id, quantity: 1n },
      ],
      publicUrl: PUBLIC_URL,
    });
    expect(checkout).toMatchObject({ kind: 'tickets', status: 'pending', tickets: [] });
    expect(checkout!.publicToken).toMatch(/^cko_/);
    const order = checkout!.order!;
    expect(order.lines.map((l) => [l.itemId, l.name, l.quantity, l.unitPriceMinor])).toEqual([
      ['', 'Jazz night: Standing', 2n, 2500n],
      ['', 'Jazz night: Seated', 1n, 4000n],
    ]);
    expect(order).toMatchObject({ currency: 'USD', totalMinor: 9000n, note: 'Online ticket checkout' });
    expect(await available(org, standing.id)).toBe(8);
    expect(await available(org, seated.id)).toBe(19);
  });

  it('bounds a checkout: 1 to 20 lines, 1 to 100 tickets a line, naming the field', async () => {
    const { org, standing } = await ticketShop();
    const lines = (count: number, quantity = 1n) => Array.from({ length: count }, () => ({ ticketTypeId: standing.id, quantity }));
    for (const [request, field] of [
      [lines(0), 'lines'],
      [lines(21), 'lines'],
      [lines(1, 0n), 'lines.0.quantity'],
      [lines(1, 101n), 'lines.0.quantity'],
    ] as const)
      expect(await failure(stack.client.createTicketCheckout({ org, lines: [...request], publicUrl: PUBLIC_URL }))).toMatchObject({
        code: 'validation_failed',
        details: { field },
      });
    expect(await available(org, standing.id)).toBe(10);
  });

  it('refuses more than is left (sold_out naming the line), unknown types, one type twice, two currencies', async () => {
    const { org, standing, seated } = await ticketShop(3);
    expect(await failure(buy(org, standing.id, 4n))).toMatchObject({
      code: 'sold_out',
      details: { field: 'lines[0].ticket_type_id', available: 3 },
    });
    const theirs = (await ticketShop()).standing;
    for (const id of [theirs.id, randomUUID()])
      expect(await failure(buy(org, id))).toMatchObject({ code: 'validation_failed', details: { field: 'lines[0].ticket_type_id' } });
    const twice = stack.client.createTicketCheckout({
      org,
      lines: [
        { ticketTypeId: seated.id, quantity: 1n },
        { ticketTypeId: seated.id, quantity: 1n },
      ],
      publicUrl: PUBLIC_URL,
    });
    expect(await failure(twice)).toMatchObject({ code: 'validation_failed', details: { field: 'lines[1].ticket_type_id' } });
    const mixed = await stack.walletOrg();
    const { events } = await stack.client.replaceTicketCatalog({
      org: mixed,
      events: [concert(5, { ticketTypes: [concert().ticketTypes[0]!, { ...concert().ticketTypes[1]!, currency: 'EUR' }] })],
    });
    const [usd, eur] = events[0]!.ticketTypes;
    const refused = stack.client.createTicketCheckout({
      org: mixed,
      lines: [
        { ticketTypeId: usd!.id, quantity: 1n },
        { ticketTypeId: eur!.id, quantity: 1n },
      ],
      publicUrl: PUBLIC_URL,
    });
    expect(await failure(refused)).toMatchObject({ code: 'validation_failed', details: { field: 'lines[1].ticket_type_id' } });
    // Nothing refused held a seat.
    expect(await available(org, standing.id)).toBe(3);
  });

  it(
    'never oversells: 50 checkouts at once for the last 10 seats, exactly 10 held',
    { tags: ['concurrency'], timeout: 120_000 },
    async () => {
      const { org, standing } = await ticketShop(10);
      const results = await Promise.allSettled(Array.from({ length: 50 }, () => buy(org, standing.id)));
      const held = results.filter((r) => r.status === 'fulfilled');
      const refused = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
      expect(held).toHaveLength(10);
      expect(new Set(refused.map((r) => (r.reason as { code: string }).code))).toEqual(new Set(['sold_out']));
      expect(await available(org, standing.id)).toBe(0);
      const list = (await stack.client.getTicketList({ org })).events[0]!.ticketTypes[0]!;
      expect(list).toMatchObject({ held: 10, sold: 0, available: 0 });
    },
  );

  it('gives its seats back when it expires, and when staff cancel its order', async () => {
    const { org, standing } = await ticketShop(2);
    const first = await buy(org, standing.id, 2n);
    expect(await failure(buy(org, standing.id))).toMatchObject({ code: 'sold_out' });
    stack.advance(901);
    try {
      expect(await available(org, standing.id)).toBe(2);
      expect((await read(org, first.publicToken)).status).toBe('expired');
      const second = await buy(org, standing.id, 2n);
      expect(await available(org, standing.id)).toBe(0);
      await stack.pos.cancelOrder({ org, orderNumber: second.order!.orderNumber, publicUrl: PUBLIC_URL });
      // Once the checkout says cancelled, its seats are back.
      await readOnce(org, second.publicToken, 'cancelled');
      expect(await available(org, standing.id)).toBe(2);
    } finally {
      stack.advance(-901);
    }
  });
});

describe('paid tickets', () => {
  it('are issued once paid, answered to the checkout, listed for the merchant, and check in once', async () => {
    const { org, standing } = await ticketShop(5);
    const created = await buy(org, standing.id, 2n);
    expect((await read(org, created.publicToken)).tickets).toEqual([]);
    await stack.payOrder(created.order!.orderNumber);
    // Once the checkout says paid, its tickets are there.
    const paid = await readOnce(org, created.publicToken, 'paid');
    expect(paid.tickets).toHaveLength(2);
    for (const ticket of paid.tickets) {
      expect(ticket).toMatchObject({
        eventName: 'Jazz night',
        ticketTypeId: standing.id,
        ticketTypeName: 'Standing',
        checkedInAt: undefined,
      });
      expect(ticket.code).toMatch(/^[0-9A-HJKMNP-TV-Z]{20}$/);
    }
    // Read again: the same tickets, none issued twice.
    expect((await read(org, created.publicToken)).tickets.map((t) => t.code)).toEqual(paid.tickets.map((t) => t.code));
    expect((await stack.client.getTicketList({ org })).events[0]!.ticketTypes[0]).toMatchObject({ sold: 2, held: 0, available: 3 });

    const orders = await stack.client.listTicketOrders({ org, limit: 10, cursor: '' });
    expect(orders.orders).toHaveLength(1);
    expect(orders.orders[0]).toMatchObject({
      orderNumber: created.order!.orderNumber,
      status: 'paid',
      hold: 'sold',
      totalMinor: 5000n,
      lines: [{ ticketTypeId: standing.id, eventName: 'Jazz night', ticketTypeName: 'Standing', quantity: 2n, unitPriceMinor: 2500n }],
    });
    expect(orders.orders[0]!.tickets.map((t) => t.code)).toEqual(paid.tickets.map((t) => t.code));

    const code = paid.tickets[0]!.code;
    const admitted = (await stack.client.checkInTicket({ org, code: code.toLowerCase() })).ticket!;
    expect(admitted.code).toBe(code);
    expect(Date.parse(admitted.checkedInAt!)).toBeGreaterThan(0);
    expect(await failure(stack.client.checkInTicket({ org, code }))).toMatchObject({
      code: 'already_checked_in',
      details: { checked_in_at: admitted.checkedInAt },
    });
    expect((await failure(stack.client.checkInTicket({ org: await stack.walletOrg(), code: paid.tickets[1]!.code }))).code).toBe(
      'not_found',
    );
    for (const malformed of ['', 'ABC', 'O'.repeat(20), `${code}\u0000`])
      expect(await failure(stack.client.checkInTicket({ org, code: malformed }))).toMatchObject({
        code: 'validation_failed',
        details: { field: 'code' },
      });
    expect((await failure(stack.client.checkInTicket({ org, code: '0'.repeat(20) }))).code).toBe('not_found');

    // The code as a QR, for the buyer's page: public, but only for a code that is a ticket.
    const qr = await stack.client.getTicketQr({ code, format: '' });
    expect(qr.contentType).toBe('image/svg+xml');
    expect(Buffer.from(qr.body).toString('utf8')).toMatch(/^<svg/);
    expect((await stack.client.getTicketQr({ code, format: 'png' })).body.subarray(1, 4).toString()).toBe('PNG');
    expect((await failure(stack.client.getTicketQr({ code: '0'.repeat(20), format: '' }))).code).toBe('not_found');
    expect(await failure(stack.client.getTicketQr({ code, format: 'gif' }))).toMatchObject({
      code: 'validation_failed',
      details: { field: 'format' },
    });

    // 100 check-ins of one code at once: exactly one admits.
    const other = paid.tickets[1]!.code;
    const results = await Promise.allSettled(Array.from({ length: 100 }, () => stack.client.checkInTicket({ org, code: other })));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const refusals = results
      .filter((r): r is PromiseRejectedResult => r.status === 'rejected')
      .map((r) => (r.reason as { code: string }).code);
    expect(new Set(refusals)).toEqual(new Set(['already_checked_in']));
  });

  it('are issued when pos says the order is paid, with no status read, before expiry; a redelivered change issues nothing twice', async () => {
    const { org, standing } = await ticketShop(5);
    const created = await buy(org, standing.id, 2n);
    const orderNumber = created.order!.orderNumber;
    // The event pos emits for the order, as it travels (to make its redeliveries below).
    const seen: EventMessage[] = [];
    const spy = await stack.transport.consume('test-ticket-payments', async (message) => {
      if (message.subject === ORDER_CHANGED_SUBJECT && OrderChanged.decode(message.data).orderNumber === orderNumber) seen.push(message);
    });
    try {
      await stack.payOrder(orderNumber);
      // Nobody reads the checkout's status: the order's change alone sells the seats and issues the tickets.
      const order = await eventually(async () => {
        const [found] = (await stack.client.listTicketOrders({ org, limit: 10, cursor: '' })).orders;
        expect(found).toMatchObject({ orderNumber, status: 'paid', hold: 'sold' });
        expect(found!.tickets).toHaveLength(2);
        return found!;
      });
      expect(Date.now()).toBeLessThan(Date.parse(created.order!.expiresAt));
      expect((await stack.client.getTicketList({ org })).events[0]!.ticketTypes[0]).toMatchObject({ sold: 2, held: 0, available: 3 });
      const codes = order.tickets.map((t) => t.code);

      // The same event delivered again (under other message ids, as after a lost acknowledgement) while the
      // buyer reads the status: no ticket more, the same codes.
      const [event] = await eventually(() => {
        expect(seen).toHaveLength(1);
        return seen;
      });
      const again = Array.from({ length: 5 }, (_, i) => ({ ...event!, id: `${event!.id}:again-${i}` }));
      const reads = await Promise.all([
        ...again.map((message) => stack.transport.publish(message).then(() => undefined)),
        ...again.map(() => read(org, created.publicToken)),
      ]);
      for (const checkout of reads.filter((r) => r !== undefined)) expect(checkout.tickets.map((t) => t.code)).toEqual(codes);
      await eventually(() => expect(again.filter((message) => !stack.handledBy(COMMERCE_CONSUMER, message.id))).toEqual([]));
      const [listed] = (await stack.client.listTicketOrders({ org, limit: 10, cursor: '' })).orders;
      expect(listed!.tickets.map((t) => t.code)).toEqual(codes);

      // Past the order's expiry the seats stay sold: not released, not for sale again.
      stack.advance(901);
      try {
        expect((await stack.client.getTicketList({ org })).events[0]!.ticketTypes[0]).toMatchObject({ sold: 2, held: 0, available: 3 });
        expect(await failure(buy(org, standing.id, 4n))).toMatchObject({ code: 'sold_out' });
        const paid = await read(org, created.publicToken);
        expect(paid.status).toBe('paid');
        expect(paid.tickets.map((t) => t.code)).toEqual(codes);
      } finally {
        stack.advance(-901);
      }
    } finally {
      await spy.stop();
    }
  });

  it('paid after expiry: sold if the seats are still free, unfulfilled (no tickets) if they were sold meanwhile', async () => {
    const { org, standing, seated } = await ticketShop(2);
    const late = await buy(org, standing.id, 2n);
    const lateButFree = await buy(org, seated.id, 1n);
    const payments = [await stack.latePayment(late.order!.orderNumber), await stack.latePayment(lateButFree.order!.orderNumber)];
    stack.advance(901);
    try {
      expect((await read(org, late.publicToken)).status).toBe('expired');
      // The seats went back on sale, and someone else bought them.
      const other = await buy(org, standing.id, 2n);
      await stack.payOrder(other.order!.orderNumber);
      expect((await readOnce(org, other.publicToken, 'paid')).tickets).toHaveLength(2);
      for (const payment of payments) await payment.confirm(org);
      const unfulfilled = await readOnce(org, late.publicToken, 'paid');
      expect(unfulfilled.tickets).toEqual([]);
      expect((await readOnce(org, lateButFree.publicToken, 'paid')).tickets).toHaveLength(1);
      const list = (await stack.client.getTicketList({ org })).events[0]!.ticketTypes;
      expect(list.map((t) => [t.sold, t.held, t.available])).toEqual([
        [2, 0, 0],
        [1, 0, 19],
      ]);
      const orders = (await stack.client.listTicketOrders({ org, limit: 10, cursor: '' })).orders;
      const hold = (orderNumber: string) => orders.find((o) => o.orderNumber === orderNumber)?.hold;
      expect([hold(late.order!.orderNumber), hold(lateButFree.order!.orderNumber), hold(other.order!.orderNumber)]).toEqual([
        'unfulfilled',
        'sold',
        'sold',
      ]);
    } finally {
      stack.advance(-901);
    }
  });

  it('the merchant’s list of ticket orders is paged newest first', async () => {
    const { org, seated } = await ticketShop();
    const made = [];
    for (let i = 0; i < 3; i++) made.push((await buy(org, seated.id)).order!.orderNumber);
    const first = await stack.client.listTicketOrders({ org, limit: 2, cursor: '' });
    expect(first.orders.map((o) => o.orderNumber)).toEqual([made[2], made[1]]);
    expect(first.orders[0]).toMatchObject({ status: 'pending', hold: 'held', tickets: [] });
    const second = await stack.client.listTicketOrders({ org, limit: 2, cursor: first.nextCursor });
    expect(second.orders.map((o) => o.orderNumber)).toEqual([made[0]]);
    expect(second.nextCursor).toBe('');
    // Item checkouts are not ticket orders; another organisation sees none of these.
    expect((await stack.client.listTicketOrders({ org: await stack.walletOrg(), limit: 10, cursor: '' })).orders).toEqual([]);
  });
});
