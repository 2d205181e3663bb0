import { randomUUID } from 'node:crypto';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { eventually } from '@ctk/shared/testing';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, onboard, type Onboarded } from './harness.js';
import { startOrderStack } from './order-harness.js';
import { expectError, uniqueClientAddress, uniqueName } from './support.js';

/*
 * The Commerce API through the gateway, commerce, pos, p2p and books on a local chain (decision 0018):
 * what a shopper's browser on the merchant's site sees with the merchant's commerce key.
 */

let stack: Awaited<ReturnType<typeof startOrderStack>>;
beforeAll(async () => {
  stack = await startOrderStack({ commerce: true });
}, 90_000);
afterAll(() => stack?.close());

const inject = (options: InjectOptions) => stack.gateway.app.inject(options);
const ORIGIN = 'https://shop.blue-bottle.example';

type Shop = Onboarded & { commerceKey: string; latte: Item; scone: Item; hidden: Item };
type Item = { id: string; price_cents: number; modifiers: { id: string; price_cents: number }[] };

/** A merchant with a wallet, a commerce key, and three items (one not available). */
async function shop(label: string, extra: Record<string, unknown> = {}): Promise<Shop> {
  const owner = await stack.walletOrg(label, extra);
  const item = async (payload: object): Promise<Item> => {
    const created = await inject({ method: 'POST', url: `/api/v1/orgs/${owner.handle}/items`, headers: bearer(owner.key), payload });
    if (created.statusCode !== 201) throw new Error(`item: ${created.body}`);
    return created.json();
  };
  const latte = await item({
    name: 'Oat milk latte',
    price_cents: 575,
    category: 'Coffee',
    modifiers: [{ name: 'Large', price_cents: 50 }],
  });
  const scone = await item({ name: 'Blueberry scone', price_cents: 425, category: 'Bakery', sku: 'SCN-1' });
  const hidden = await item({ name: 'Staff meal', price_cents: 100, available: false });
  const key = await inject({ method: 'POST', url: `/api/v1/orgs/${owner.handle}/commerce-key`, headers: bearer(owner.key) });
  return { ...owner, commerceKey: key.json().commerce_public_key, latte, scone, hidden };
}

/** A request as the shopper's browser sends it: the merchant's key, from the merchant's site. */
const browser = (shop: Pick<Shop, 'commerceKey'>, options: InjectOptions & { remoteAddress?: string }) =>
  inject({ ...options, headers: { origin: ORIGIN, 'x-commerce-key': shop.commerceKey, ...options.headers } });
const base = (shop: Pick<Shop, 'handle'>) => `/api/v1/commerce/${shop.handle}`;
/** A checkout by a shopper of its own (`remoteAddress`, else a new client): one client holds only so many addresses (decision 0022). */
const checkout = (shop: Shop, payload: unknown, headers: Record<string, string> = {}, remoteAddress = uniqueClientAddress()) =>
  browser(shop, { method: 'POST', url: `${base(shop)}/checkout`, payload: payload as object, headers, remoteAddress });
const statusOf = (shop: Shop, token: string) => browser(shop, { method: 'GET', url: `${base(shop)}/checkout/${token}/status` });

let cafe: Shop;
beforeAll(async () => {
  cafe = await shop('Blue Bottle Cafe', { jurisdiction: 'US-CA' });
}, 30_000);

describe('the merchant and the catalog', () => {
  it('the profile: public facts, the catalog currency and size, whether checkouts can be paid', async () => {
    const profile = await browser(cafe, { method: 'GET', url: base(cafe) });
    expect(profile.statusCode).toBe(200);
    expect(profile.json()).toEqual({
      handle: cafe.handle,
      name: expect.stringContaining('Blue Bottle Cafe'),
      avatar_url: null,
      category: null,
      paymail: null,
      currency: 'USD',
      currencies: ['USD'],
      items_for_sale: 2,
      prices_include_tax: false,
      accepts_payments: true,
    });
    expect(profile.body).not.toContain(cafe.orgId);
  });

  it('the catalog: available items only, by category, public fields only; one item by id', async () => {
    const answer = await browser(cafe, { method: 'GET', url: `${base(cafe)}/catalog` });
    expect(answer.statusCode).toBe(200);
    expect(answer.json().sections).toEqual([
      { name: 'Bakery', item_ids: [cafe.scone.id] },
      { name: 'Coffee', item_ids: [cafe.latte.id] },
    ]);
    expect(answer.json().items[1]).toEqual({
      id: cafe.latte.id,
      name: 'Oat milk latte',
      description: '',
      price_minor: 575,
      currency: 'USD',
      category: 'Coffee',
      price_type: 'fixed',
      sold_out: false,
      modifiers: [{ id: cafe.latte.modifiers[0]!.id, name: 'Large', price_minor: 50, group: null }],
    });
    for (const secret of ['SCN-1', 'Staff meal', 'tax_treatment', 'inventory', cafe.orgId]) expect(answer.body).not.toContain(secret);
    const one = await browser(cafe, { method: 'GET', url: `${base(cafe)}/catalog/${cafe.scone.id}` });
    expect(one.json()).toEqual(answer.json().items[0]);
    expectError(await browser(cafe, { method: 'GET', url: `${base(cafe)}/catalog/${cafe.hidden.id}` }), 404, 'not_found');
    expectError(await browser(cafe, { method: 'GET', url: `${base(cafe)}/catalog/latte` }), 422, 'validation_failed');
  });
});

describe('a checkout', () => {
  it('is priced from the catalog whatever the browser sends: prices, totals and taxes in the body are refused', async () => {
    for (const extra of [{ unit_price_minor: 1 }, { price_minor: 1 }, { total_minor: 1 }]) {
      const refused = await checkout(cafe, { lines: [{ item_id: cafe.latte.id, quantity: 1, ...extra }] });
      expectError(refused, 422, 'validation_failed');
      expect(refused.json().error.details.field).toBe(`lines.0.${Object.keys(extra)[0]}`);
    }
    for (const extra of [{ total_minor: 1 }, { tax_minor: 0 }, { currency: 'JPY' }]) {
      expectError(await checkout(cafe, { lines: [{ item_id: cafe.latte.id }], ...extra }), 422, 'validation_failed');
    }

    const created = await checkout(cafe, {
      lines: [
        { item_id: cafe.latte.id, quantity: 2, modifier_ids: [cafe.latte.modifiers[0]!.id] },
        { item_id: cafe.scone.id, quantity: 1 },
      ],
    });
    expect(created.statusCode).toBe(201);
    const body = created.json();
    expect(body.public_token).toMatch(/^cko_[A-Za-z0-9_-]{32}$/);
    expect(body.status).toBe('pending');
    expect(body.lines.map((line: { unit_price_minor: number; quantity: number }) => [line.unit_price_minor, line.quantity])).toEqual([
      [625, 2],
      [425, 1],
    ]);
    expect(body.subtotal_minor).toBe(1675);
    // US-CA's standard rate on each line, from books, as at the counter.
    expect(body.tax_minor).toBeGreaterThan(0);
    expect(body.total_minor).toBe(1675 + body.tax_minor);
    expect(body.satoshis).toBe(body.total_minor * 100);
    expect(body.due_satoshis).toBe(body.satoshis);
    // The payment request is the order's own.
    const order = (await inject({ method: 'GET', url: `/api/pos/orders/${body.order_number}` })).json();
    for (const field of ['total_minor', 'tax_minor', 'satoshis', 'bip21_uri', 'pay_uri', 'payment_request_url', 'address', 'expires_at'])
      expect(body[field], field).toEqual(order[field]);
    expect(body.pay_uri).toBe(`pay:?r=${encodeURIComponent(body.payment_request_url)}`);
    expect(body.bip21_uri).toMatch(new RegExp(`^bitcoin:${body.address}\\?sv&amount=`));
    expect(new URL(body.events_url).pathname).toBe(`/api/pos/orders/${body.order_number}/events`);
    expect((await inject({ method: 'GET', url: new URL(body.qr_url).pathname })).headers['content-type']).toMatch(/^image\/svg\+xml/);
    expect(Date.parse(body.expires_at) - Date.parse(body.created_at)).toBeGreaterThan(890_000);
    expect(created.body).not.toContain(cafe.orgId);
  });

  it('paid with a wallet by BIP270, shows paid in its status and lands in the books like any order', async () => {
    const created = (await checkout(cafe, { lines: [{ item_id: cafe.scone.id, quantity: 2 }] })).json();
    expect((await statusOf(cafe, created.public_token)).json()).toMatchObject({ status: 'pending', paid_satoshis: 0 });
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

    // Once the order's change reached commerce (decision 0046), as an integrator polling sees it.
    await eventually(async () => expect((await statusOf(cafe, created.public_token)).json().status).toBe('paid'));
    const status = await statusOf(cafe, created.public_token);
    expect(status.statusCode).toBe(200);
    expect(status.json()).toEqual({
      public_token: created.public_token,
      status: 'paid',
      currency: 'USD',
      total_minor: created.total_minor,
      satoshis: created.satoshis,
      paid_satoshis: created.satoshis,
      due_satoshis: 0,
      expires_at: created.expires_at,
      paid_at: expect.any(String),
      confirmed_at: null,
      // Paid in bitcoin: no provider took it, nothing refunded (decision 0019).
      provider: null,
      refunded_minor: 0,
    });
    const entry = await eventually(async () => {
      const ledger = await inject({ method: 'GET', url: `/api/v1/orgs/${cafe.handle}/ledger`, headers: bearer(cafe.key) });
      const found = ledger.json().data.find((candidate: { txid: string | null }) => candidate.txid === tx.id('hex'));
      expect(found).toBeDefined();
      return found;
    });
    const line = (code: string) => entry.lines.find((candidate: { account_code: string }) => candidate.account_code === code);
    expect(entry).toMatchObject({ source_service: 'pos', currency: 'USD', satoshis: created.satoshis });
    expect(line('1010').debit_minor).toBe(created.total_minor);
    expect(line('4000').credit_minor).toBe(created.subtotal_minor);
    expect(line('2100').credit_minor).toBe(created.tax_minor);
  });

  it('says paid in the status read that follows its order’s event stream saying so, before commerce hears of the change', async () => {
    const created = (await checkout(cafe, { lines: [{ item_id: cafe.scone.id, quantity: 1 }] })).json();
    const request = (await inject({ method: 'GET', url: new URL(created.payment_request_url).pathname })).json();
    const tx = await stack.paying(
      request.outputs.map((output: { script: string; amount: number }) => ({ script: output.script, satoshis: output.amount })),
    );
    // The stream as the Buy button holds it, over the wire; commerce's deliveries held back, as a slow broker's.
    const stream = await new Promise<IncomingMessage>((resolve, reject) =>
      httpRequest({ host: '127.0.0.1', port: stack.gateway.port, path: new URL(created.events_url).pathname }, resolve)
        .on('error', reject)
        .end(),
    );
    const release = stack.holdBackCommerce();
    try {
      const ack = await inject({
        method: 'POST',
        url: new URL(request.paymentUrl).pathname,
        payload: { transaction: tx.toHex(), merchantData: request.merchantData },
      });
      expect(ack.json().error).toBe(0);
      let text = '';
      for await (const chunk of stream) {
        text += String(chunk);
        if (text.includes('"status":"paid"')) break;
      }
      // The one read the Buy button makes then (apps/gateway/embed): the gateway had commerce record the change first.
      expect((await statusOf(cafe, created.public_token)).json()).toMatchObject({ status: 'paid', due_satoshis: 0 });
    } finally {
      stream.destroy();
      release();
    }
  });

  it('expires unpaid with its order, and then refuses payment', async () => {
    const created = (await checkout(cafe, { lines: [{ item_id: cafe.latte.id }] })).json();
    stack.advance(901);
    try {
      expect((await statusOf(cafe, created.public_token)).json()).toMatchObject({ status: 'expired', paid_satoshis: 0 });
      expectError(await inject({ method: 'GET', url: new URL(created.payment_request_url).pathname }), 422, 'payment_expired');
    } finally {
      stack.advance(-901);
    }
  });

  it('honours Idempotency-Key per shopper: a retry gets the same checkout, another address its own', async () => {
    const payload = { lines: [{ item_id: cafe.scone.id }] };
    const key = { 'idempotency-key': `buy-${uniqueName('scone').replace(' ', '-')}` };
    const first = await checkout(cafe, payload, key, '198.51.100.7');
    const retry = await checkout(cafe, payload, key, '198.51.100.7');
    expect(retry.json().public_token).toBe(first.json().public_token);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    const elsewhere = await checkout(cafe, payload, key, '203.0.113.9');
    expect(elsewhere.statusCode).toBe(201);
    expect(elsewhere.json().public_token).not.toBe(first.json().public_token);
  });

  it('refuses bad input with a clear 4xx naming the field, creating nothing', async () => {
    const cases: [string, unknown, string][] = [
      ['an item not for sale', { lines: [{ item_id: cafe.scone.id }, { item_id: cafe.hidden.id }] }, 'lines[1].item_id'],
      ['no lines', { lines: [] }, 'lines'],
      ['no body fields', {}, 'lines'],
      ['a quantity of 0', { lines: [{ item_id: cafe.scone.id, quantity: 0 }] }, 'lines.0.quantity'],
      ['a quantity above 10000', { lines: [{ item_id: cafe.scone.id, quantity: 10_001 }] }, 'lines.0.quantity'],
      ['101 lines', { lines: Array.from({ length: 101 }, () => ({ item_id: cafe.scone.id })) }, 'lines'],
      [
        '21 modifiers on a line',
        { lines: [{ item_id: cafe.scone.id, modifier_ids: Array.from({ length: 21 }, () => randomUUID()) }] },
        'lines.0.modifier_ids',
      ],
      ['a fractional quantity', { lines: [{ item_id: cafe.scone.id, quantity: 1.5 }] }, 'lines.0.quantity'],
      ['a quantity as text', { lines: [{ item_id: cafe.scone.id, quantity: '2' }] }, 'lines.0.quantity'],
      ['a bell in the item id', { lines: [{ item_id: `${cafe.scone.id}\u0007` }] }, 'lines.0.item_id'],
      ['a NUL in the item id', { lines: [{ item_id: `${cafe.scone.id}\u0000` }] }, 'lines.0.item_id'],
      ['a NUL in an unknown field', { lines: [{ item_id: cafe.scone.id }], ['note\u0000']: 'x' }, 'note\u0000'],
      [
        'a modifier of another item',
        { lines: [{ item_id: cafe.scone.id, modifier_ids: [cafe.latte.modifiers[0]!.id] }] },
        'lines[0].modifiers',
      ],
      ['an item id that is not a UUID', { lines: [{ item_id: cafe.scone.id }, { item_id: 'not-a-uuid' }] }, 'lines.1.item_id'],
    ];
    for (const [label, payload, field] of cases) {
      const refused = await checkout(cafe, payload);
      expect({ label, status: refused.statusCode }).toEqual({ label, status: 422 });
      expect({ label, field: refused.json().error.details.field }).toEqual({ label, field });
    }
    const malformed = await browser(cafe, {
      method: 'POST',
      url: `${base(cafe)}/checkout`,
      headers: { 'content-type': 'application/json' },
      payload: '{"lines": [',
    });
    expectError(malformed, 400, 'bad_request');
    expectError(await statusOf(cafe, 'not-a-token'), 422, 'validation_failed');
    expectError(await statusOf(cafe, `cko_${'A'.repeat(32)}`), 404, 'not_found');
  });
});

describe('the commerce key', () => {
  it("of another merchant is refused on this merchant's routes (403), and a token of its checkouts is not found here", async () => {
    const other = await shop('Other Cafe');
    const theirs = (await checkout(other, { lines: [{ item_id: other.scone.id }] })).json();
    const mine = (await checkout(cafe, { lines: [{ item_id: cafe.scone.id }] })).json();
    const asOther = { commerceKey: other.commerceKey };
    for (const url of [
      base(cafe),
      `${base(cafe)}/catalog`,
      `${base(cafe)}/catalog/${cafe.scone.id}`,
      `${base(cafe)}/checkout/${mine.public_token}/status`,
    ])
      expectError(await browser(asOther, { method: 'GET', url }), 403, 'forbidden');
    expectError(
      await browser(asOther, { method: 'POST', url: `${base(cafe)}/checkout`, payload: { lines: [{ item_id: cafe.scone.id }] } }),
      403,
      'forbidden',
    );
    // With its own key and handle, another merchant's token is simply not found, and so is its item.
    expectError(await statusOf(cafe, theirs.public_token), 404, 'not_found');
    expectError(await statusOf(other, mine.public_token), 404, 'not_found');
    const theirItem = await checkout(cafe, { lines: [{ item_id: other.scone.id }] });
    expectError(theirItem, 422, 'validation_failed');
    expect(theirItem.json().error.details.field).toBe('lines[0].item_id');
  });

  it('is no credential anywhere else, and a user API key is no commerce key', async () => {
    const commerceKey = { 'x-commerce-key': cafe.commerceKey };
    expectError(await inject({ method: 'GET', url: '/api/v1/me', headers: commerceKey }), 401, 'unauthenticated');
    expectError(await inject({ method: 'GET', url: `/api/v1/orgs/${cafe.handle}/items`, headers: commerceKey }), 401, 'unauthenticated');
    expectError(
      await inject({
        method: 'POST',
        url: '/api/pos/orders',
        headers: commerceKey,
        payload: { org_handle: cafe.handle, lines: [{ item_id: cafe.scone.id }] },
      }),
      401,
      'unauthenticated',
    );
    expectError(
      await inject({ method: 'GET', url: `/api/v1/orgs/${cafe.handle}/items`, headers: bearer(cafe.commerceKey) }),
      401,
      'invalid_api_key',
    );
    expectError(await browser({ commerceKey: cafe.key }, { method: 'GET', url: `${base(cafe)}/catalog` }), 401, 'invalid_api_key');
    expectError(await inject({ method: 'GET', url: `${base(cafe)}/catalog` }), 401, 'unauthenticated');
  });

  it('stops working once rotated', async () => {
    const rotating = await shop('Rotating Cafe');
    const rotated = await inject({ method: 'POST', url: `/api/v1/orgs/${rotating.handle}/commerce-key`, headers: bearer(rotating.key) });
    expectError(await browser(rotating, { method: 'GET', url: `${base(rotating)}/catalog` }), 401, 'invalid_api_key');
    const fresh = await browser({ commerceKey: rotated.json().commerce_public_key }, { method: 'GET', url: `${base(rotating)}/catalog` });
    expect(fresh.statusCode).toBe(200);
  });
});

describe('CORS', () => {
  it('is open to any origin on the commerce routes, answers and refusals alike', async () => {
    const created = (await checkout(cafe, { lines: [{ item_id: cafe.scone.id }] })).json();
    const answers = [
      await browser(cafe, { method: 'GET', url: base(cafe) }),
      await browser(cafe, { method: 'GET', url: `${base(cafe)}/catalog` }),
      await checkout(cafe, { lines: [{ item_id: cafe.scone.id }] }),
      await statusOf(cafe, created.public_token),
      await checkout(cafe, { lines: [] }),
    ];
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200, 201, 200, 422]);
    for (const answer of answers) expect(answer.headers['access-control-allow-origin']).toBe('*');
    const preflight = await inject({
      method: 'OPTIONS',
      url: `${base(cafe)}/checkout/${created.public_token}/status`,
      headers: { origin: ORIGIN, 'access-control-request-method': 'GET', 'access-control-request-headers': 'x-commerce-key' },
    });
    expect(preflight.statusCode).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe('*');
    expect(String(preflight.headers['access-control-allow-headers'])).toContain('x-commerce-key');
  });

  it('is closed on the routes that take a secret key', async () => {
    const origin = { origin: ORIGIN };
    const staffRoutes = [
      await inject({ method: 'GET', url: `/api/v1/orgs/${cafe.handle}/items`, headers: { ...origin, ...bearer(cafe.key) } }),
      await inject({
        method: 'POST',
        url: '/api/pos/orders',
        headers: { ...origin, ...bearer(cafe.key) },
        payload: { org_handle: cafe.handle, lines: [{ item_id: cafe.scone.id }] },
      }),
      await inject({ method: 'POST', url: `/api/v1/orgs/${cafe.handle}/commerce-key`, headers: { ...origin } }),
    ];
    expect(staffRoutes.map((answer) => answer.statusCode)).toEqual([200, 201, 401]);
    for (const answer of staffRoutes) expect(answer.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('a merchant without a wallet', () => {
  it('is told in the profile, and a checkout is refused with 409 naming how to register one', async () => {
    const bare = await onboard(stack.gateway, uniqueName('No Wallet Shop'));
    await inject({
      method: 'POST',
      url: `/api/v1/orgs/${bare.handle}/items`,
      headers: bearer(bare.key),
      payload: { name: 'Tea', price_cents: 300 },
    });
    const key = (await inject({ method: 'POST', url: `/api/v1/orgs/${bare.handle}/commerce-key`, headers: bearer(bare.key) })).json();
    const asBrowser = { commerceKey: key.commerce_public_key };
    expect((await browser(asBrowser, { method: 'GET', url: base(bare) })).json()).toMatchObject({
      accepts_payments: false,
      items_for_sale: 1,
    });
    const tea = (await browser(asBrowser, { method: 'GET', url: `${base(bare)}/catalog` })).json().items[0];
    const refused = await browser(asBrowser, { method: 'POST', url: `${base(bare)}/checkout`, payload: { lines: [{ item_id: tea.id }] } });
    expectError(refused, 409, 'failed_precondition');
    expect(refused.json().error.message).toContain(`/api/v1/organizations/${bare.handle}`);
  });
});
