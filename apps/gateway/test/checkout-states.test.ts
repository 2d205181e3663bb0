import { createHmac, randomBytes } from 'node:crypto';
import { eventually } from '@ctk/shared/testing';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, bearer, type Onboarded } from './harness.js';
import { startOrderStack } from './order-harness.js';
import { expectError, uniqueClientAddress, uniqueName } from './support.js';

/*
 * Checkout states that say what happened (decisions 0019 and 0020): a checkout paid at
 * the card provider leaves its pos order `paid_elsewhere` (not cancelled), a refund in full shows `refunded`
 * and gives a ticket checkout's seats back, a parked event can be applied by an admin, and a bitcoin payment
 * and a card payment of one checkout are never both counted, whether they race or pos cannot be asked.
 * Through the gateway, with commerce, pos, p2p, books and a local chain.
 */

let stack: Awaited<ReturnType<typeof startOrderStack>>;
beforeAll(async () => {
  stack = await startOrderStack({ commerce: true });
}, 90_000);
afterAll(() => stack?.close());

const inject = (options: InjectOptions) => stack.gateway.app.inject(options);
const nextYear = new Date().getFullYear() + 1;

type Shop = Onboarded & { commerceKey: string; itemId: string; standing: string; secret: string; staffKey: string };

async function shop(label: string, seats = 1): Promise<Shop> {
  const owner = await stack.walletOrg(uniqueName(label));
  const item = await inject({
    method: 'POST',
    url: `/api/v1/orgs/${owner.handle}/items`,
    headers: bearer(owner.key),
    payload: { name: 'Latte', price_cents: 450, tax_treatment: 'reduced', tax_rate: '0.1' },
  });
  const key = await inject({ method: 'POST', url: `/api/v1/orgs/${owner.handle}/commerce-key`, headers: bearer(owner.key) });
  const catalog = await inject({
    method: 'PUT',
    url: `/api/v1/orgs/${owner.handle}/tickets/catalog`,
    headers: bearer(owner.key),
    payload: {
      events: [
        {
          name: 'Jazz night',
          starts_at: `${nextYear}-06-12T19:00:00Z`,
          ends_at: `${nextYear}-06-12T23:00:00Z`,
          venue: 'Back room',
          ticket_types: [{ name: 'Standing', price_minor: 2500, currency: 'USD', capacity: seats }],
        },
      ],
    },
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
  const staff = await addMember(stack.gateway, owner, 'staff');
  return {
    ...owner,
    commerceKey: key.json().commerce_public_key,
    itemId: item.json().id,
    standing: catalog.json().events[0].ticket_types[0].id,
    secret,
    staffKey: staff.key,
  };
}

type Created = { public_token: string; order_number: string; total_minor: number; satoshis: number; payment_request_url: string };

const browser = (shop: Shop, options: InjectOptions) =>
  inject({
    remoteAddress: uniqueClientAddress(),
    ...options,
    headers: { 'x-commerce-key': shop.commerceKey },
  });

async function itemCheckout(shop: Shop): Promise<Created> {
  const created = await browser(shop, {
    method: 'POST',
    url: `/api/v1/commerce/${shop.handle}/checkout`,
    payload: { lines: [{ item_id: shop.itemId, quantity: 2 }] },
  });
  expect(created.statusCode, created.body).toBe(201);
  return created.json();
}

async function ticketCheckout(shop: Shop, quantity = 1) {
  return browser(shop, {
    method: 'POST',
    url: `/api/v1/commerce/${shop.handle}/tickets/checkout`,
    payload: { lines: [{ ticket_type_id: shop.standing, quantity }] },
  });
}

const status = async (shop: Shop, created: Created) =>
  (await browser(shop, { method: 'GET', url: `/api/v1/commerce/${shop.handle}/checkout/${created.public_token}/status` })).json();
const order = async (created: Created) => (await inject({ method: 'GET', url: `/api/pos/orders/${created.order_number}` })).json();

const stripeSignature = (secret: string, body: string, t = Math.floor(Date.now() / 1000)) =>
  `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${body}`).digest('hex')}`;

function stripeEvent(type: string, object: Record<string, unknown>) {
  const id = `evt_${randomBytes(12).toString('hex')}`;
  return JSON.stringify({ id, object: 'event', created: 1763900000, livemode: false, type, data: { object } }, null, 2);
}
const intentOf = (created: Created) => `pi_${created.public_token.slice(4, 20)}`;
const cardPaid = (created: Created) =>
  stripeEvent('checkout.session.completed', {
    id: `cs_test_${created.public_token.slice(4, 12)}`,
    object: 'checkout.session',
    amount_total: created.total_minor,
    currency: 'usd',
    payment_intent: intentOf(created),
    payment_status: 'paid',
    metadata: { ctk_checkout: created.public_token },
  });
const cardRefunded = (created: Created, amountRefunded: number) =>
  stripeEvent('charge.refunded', {
    id: `ch_${created.public_token.slice(4, 12)}`,
    object: 'charge',
    amount: created.total_minor,
    amount_refunded: amountRefunded,
    currency: 'usd',
    payment_intent: intentOf(created),
    refunded: amountRefunded === created.total_minor,
  });
/** A delivery, signed anew each time as the provider signs each attempt (`ago`: signed that many seconds ago). */
const deliver = (shop: Shop, body: string, ago = 0) =>
  inject({
    method: 'POST',
    url: `/api/webhooks/card-provider?org=${shop.handle}`,
    headers: {
      'content-type': 'application/json',
      'stripe-signature': stripeSignature(shop.secret, body, Math.floor(Date.now() / 1000) - ago),
    },
    payload: body,
  });

/** The order's BIP270 payment request, and a customer's transaction paying it (not yet sent). */
async function bitcoinPayment(created: Created) {
  const request = (await inject({ method: 'GET', url: new URL(created.payment_request_url).pathname })).json();
  const tx = await stack.paying(
    request.outputs.map((output: { script: string; amount: number }) => ({ script: output.script, satoshis: output.amount })),
  );
  return {
    txid: tx.id('hex'),
    send: () =>
      inject({
        method: 'POST',
        url: new URL(request.paymentUrl).pathname,
        payload: { transaction: tx.toHex(), merchantData: request.merchantData },
      }),
  };
}

type Entry = { event_type: string; source_service: string; txid: string | null };
const ledger = async (shop: Shop): Promise<Entry[]> =>
  (await inject({ method: 'GET', url: `/api/v1/orgs/${shop.handle}/ledger`, headers: bearer(shop.key) })).json().data;
const sales = (entries: Entry[]) => entries.filter((entry) => entry.event_type === 'payment.received');

const events = async (shop: Shop, outcome = '') =>
  (
    await inject({
      method: 'GET',
      url: `/api/v1/orgs/${shop.handle}/payment-providers/events${outcome ? `?outcome=${outcome}` : ''}`,
      headers: bearer(shop.key),
    })
  ).json().data as { id: string; event_id: string; outcome: string; reason: string }[];

describe('a checkout paid at the card provider', () => {
  it('shows its pos order paid_elsewhere, naming the provider, and the order takes no bitcoin payment after that', async () => {
    const cafe = await shop('Blue Bottle Cafe');
    const created = await itemCheckout(cafe);
    const bitcoin = await bitcoinPayment(created);
    expect((await deliver(cafe, cardPaid(created))).json()).toMatchObject({ outcome: 'applied' });

    expect(await order(created)).toMatchObject({ status: 'paid_elsewhere', paid_elsewhere_by: 'card-provider', due_satoshis: 0 });
    await eventually(async () =>
      expect(await status(cafe, created)).toMatchObject({ status: 'paid', provider: 'card-provider', due_satoshis: 0, paid_satoshis: 0 }),
    );
    const refused = await bitcoin.send();
    expectError(refused, 409, 'failed_precondition');
    expect(refused.json().error.message).toContain('paid_elsewhere');
    expect(await order(created)).toMatchObject({ status: 'paid_elsewhere', paid_satoshis: 0 });
    const staff = await inject({
      method: 'POST',
      url: `/api/pos/orders/${created.order_number}/confirm`,
      headers: bearer(cafe.staffKey),
      payload: { org_handle: cafe.handle, txid: bitcoin.txid },
    });
    expectError(staff, 409, 'failed_precondition');

    // The sale is in the books once, from commerce's provider payment; pos posts nothing for the order.
    const entries = await eventually(async () => {
      const found = await ledger(cafe);
      expect(sales(found)).toHaveLength(1);
      return found;
    });
    expect(sales(entries)[0]!.source_service).toBe('commerce');
  }, 60_000);
});

describe('a checkout refunded at the provider', () => {
  it('in part stays paid and says how much was refunded; in full shows refunded', async () => {
    const cafe = await shop('Refund Cafe');
    const created = await itemCheckout(cafe);
    await deliver(cafe, cardPaid(created));
    expect((await deliver(cafe, cardRefunded(created, 300))).json().outcome).toBe('applied');
    await eventually(async () => expect(await status(cafe, created)).toMatchObject({ status: 'paid', refunded_minor: 300 }));
    expect((await deliver(cafe, cardRefunded(created, created.total_minor))).json().outcome).toBe('applied');
    expect(await status(cafe, created)).toMatchObject({ status: 'refunded', refunded_minor: created.total_minor });
    // The pos order keeps saying where it was paid.
    expect((await order(created)).status).toBe('paid_elsewhere');
  });

  it('in full gives a ticket checkout its seats back; its tickets admit nobody', async () => {
    const club = await shop('Refund Club', 1);
    const created: Created = (await ticketCheckout(club)).json();
    await deliver(club, cardPaid(created));
    const [ticket] = (await status(club, created)).tickets;
    expect(ticket).toBeDefined();
    expectError(await ticketCheckout(club), 409, 'sold_out');
    await deliver(club, cardRefunded(created, created.total_minor));

    const answered = await status(club, created);
    expect(answered).toMatchObject({ status: 'refunded', tickets: [] });
    const list = (await browser(club, { method: 'GET', url: `/api/v1/commerce/${club.handle}/tickets` })).json();
    expect(list.events[0].ticket_types[0].available).toBe(1);
    const admitted = await inject({
      method: 'POST',
      url: `/api/v1/orgs/${club.handle}/tickets/check-in`,
      headers: bearer(club.staffKey),
      payload: { code: ticket.code },
    });
    expectError(admitted, 409, 'failed_precondition');
    const orders = (await inject({ method: 'GET', url: `/api/v1/orgs/${club.handle}/tickets/orders`, headers: bearer(club.key) })).json();
    expect(orders.data[0]).toMatchObject({ status: 'refunded', hold: 'refunded' });
    expect((await ticketCheckout(club)).statusCode).toBe(201);
  });
});

describe('a card payment while pos cannot be asked', () => {
  it('is not applied blind: 503 for the provider to redeliver, parked meanwhile; the bitcoin payment made then counts alone', async () => {
    const cafe = await shop('Down Cafe');
    const created = await itemCheckout(cafe);
    const bitcoin = await bitcoinPayment(created);
    const body = cardPaid(created);
    stack.posLink.cut();
    try {
      expectError(await deliver(cafe, body), 503, 'unavailable');
    } finally {
      stack.posLink.restore();
    }
    expect((await events(cafe, 'parked')).map((event) => event.reason).join()).toContain('pos');
    expect((await bitcoin.send()).json().error).toBe(0);
    // The provider's redelivery: the order was paid in bitcoin meanwhile, so the card payment is the one to refund.
    const redelivered = await deliver(cafe, body, 30);
    expect(redelivered.statusCode).toBe(200);
    expect(redelivered.json()).toMatchObject({ outcome: 'parked' });
    expect(redelivered.json().reason).toMatch(/refund/);
    await eventually(async () => expect(await status(cafe, created)).toMatchObject({ status: 'paid', provider: null }));
    const entries = await eventually(async () => {
      const found = await ledger(cafe);
      expect(sales(found)).toHaveLength(1);
      return found;
    });
    expect(sales(entries)[0]!.txid).toBe(bitcoin.txid);
  }, 60_000);

  it('is applied by an admin once pos answers (a parked event, applied as a delivery would, once)', async () => {
    const cafe = await shop('Parked Cafe');
    const created = await itemCheckout(cafe);
    stack.posLink.cut();
    try {
      expectError(await deliver(cafe, cardPaid(created)), 503, 'unavailable');
    } finally {
      stack.posLink.restore();
    }
    // Once commerce reaches pos again: another checkout opens (a call made before commerce's side of the link
    // has seen its dropped connection fail as unavailable, as any first call after a cut may).
    await eventually(async () => {
      const another = await browser(cafe, {
        method: 'POST',
        url: `/api/v1/commerce/${cafe.handle}/checkout`,
        payload: { lines: [{ item_id: cafe.itemId, quantity: 1 }] },
      });
      expect(another.statusCode, another.body).toBe(201);
    });
    expect(await status(cafe, created)).toMatchObject({ status: 'pending' });
    const [parked] = await events(cafe, 'parked');
    expect(parked).toBeDefined();
    const apply = (key: string) =>
      inject({ method: 'POST', url: `/api/v1/orgs/${cafe.handle}/payment-providers/events/${parked!.id}/apply`, headers: bearer(key) });
    expectError(await apply(cafe.staffKey), 403, 'forbidden');
    const answers = await Promise.all([apply(cafe.key), apply(cafe.key), apply(cafe.key)]);
    for (const answer of answers) {
      expect(answer.statusCode, answer.body).toBe(200);
      expect(answer.json()).toMatchObject({ id: parked!.id, outcome: 'applied' });
    }
    expect(await order(created)).toMatchObject({ status: 'paid_elsewhere', paid_elsewhere_by: 'card-provider' });
    await eventually(async () => expect(await status(cafe, created)).toMatchObject({ status: 'paid', provider: 'card-provider' }));
    await eventually(async () => expect(sales(await ledger(cafe)).map((entry) => entry.source_service)).toEqual(['commerce']));
    expectError(
      await inject({
        method: 'POST',
        url: `/api/v1/orgs/${cafe.handle}/payment-providers/events/00000000-0000-4000-8000-000000000000/apply`,
        headers: bearer(cafe.key),
      }),
      404,
      'not_found',
    );
  }, 60_000);
});

describe('a bitcoin payment and a card payment of one checkout at the same instant', () => {
  it(
    'are never both counted: one counts, the other is refused before it is taken or flagged for refund',
    { tags: ['concurrency'], timeout: 180_000 },
    async () => {
      const RUNS = 8;
      const shops: { cafe: Shop; created: Created; txid: string }[] = [];
      for (let run = 0; run < RUNS; run++) {
        const cafe = await shop(`Race Cafe ${run}`);
        const created = await itemCheckout(cafe);
        const bitcoin = await bitcoinPayment(created);
        const [paid, card] = await Promise.all([bitcoin.send(), deliver(cafe, cardPaid(created))]);
        expect(card.statusCode, card.body).toBe(200);
        const now = await order(created);
        // The checkout shows its order's change once that reaches commerce (decision 0046).
        const answered = await eventually(async () => {
          const read = await status(cafe, created);
          expect(read.status).toBe('paid');
          return read;
        });
        if (card.json().outcome === 'applied') {
          // The card counted: the order is paid there; the bitcoin payment was refused, or taken and flagged for refund.
          expect(now.status).toBe('paid_elsewhere');
          expect(answered).toMatchObject({ status: 'paid', provider: 'card-provider' });
          if (paid.statusCode === 200) throw new Error(`both counted: ${paid.body}`);
          expectError(paid, 409, 'failed_precondition');
          if (now.paid_satoshis > 0) expect(now.flags).toContain('refund_due');
        } else {
          // The bitcoin payment counted: the card payment is parked for the merchant to refund.
          expect(paid.json().error, paid.body).toBe(0);
          expect(['paid', 'confirmed']).toContain(now.status);
          expect(card.json()).toMatchObject({ outcome: 'parked' });
          expect(card.json().reason).toMatch(/refund/);
          expect(answered).toMatchObject({ status: 'paid', provider: null });
        }
        shops.push({ cafe, created, txid: bitcoin.txid });
      }
      for (const { cafe } of shops) await eventually(async () => expect(sales(await ledger(cafe)).length).toBeGreaterThan(0));
      for (const { cafe } of shops) expect(sales(await ledger(cafe))).toHaveLength(1);
    },
  );
});
