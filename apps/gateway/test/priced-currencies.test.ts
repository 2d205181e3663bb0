import { HD } from '@bsv/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, onboard, type Onboarded, type Gateway } from './harness.js';
import { startPosStack } from './pos-harness.js';
import { expectError, uniqueName } from './support.js';

/**
 * Only currencies with a satoshi rate are priced in, refused when the item, pay link or
 * card is made (pos's default rates name USD, EUR, GBP, AUD, CAD and JPY); a top-up says what it charged.
 */

let stack: Awaited<ReturnType<typeof startPosStack>>;
let gateway: Gateway;
let cafe: Onboarded;

const send = (method: 'GET' | 'POST', url: string, payload?: object) =>
  gateway.app.inject({ method, url, headers: bearer(cafe.key), ...(payload ? { payload } : {}) });

beforeAll(async () => {
  stack = await startPosStack({ orders: true });
  gateway = stack.gateway;
  cafe = await onboard(gateway, uniqueName('Blue Bottle Cafe'));
  const xpub = HD.fromRandom().derive("m/44'/236'/0'").toPublic().toString();
  const patched = await gateway.app.inject({
    method: 'PATCH',
    url: `/api/v1/organizations/${cafe.handle}`,
    headers: bearer(cafe.key),
    payload: { wallet_xpub: xpub },
  });
  expect(patched.statusCode).toBe(200);
}, 180_000);
afterAll(() => stack?.close());

/** A 422 naming `currency` that tells the caller which currencies do have a rate. */
function expectNoRate(response: Awaited<ReturnType<typeof send>>) {
  expectError(response, 422, 'validation_failed');
  const error = response.json().error;
  expect(error.details.field).toBe('currency');
  expect(error.message).toContain('XXX');
  expect(error.message).toContain('USD');
}

describe('a currency without a satoshi rate', () => {
  it('is refused when an item is made, not when it is sold', async () => {
    expectNoRate(await send('POST', '/api/v1/items', { org_handle: cafe.handle, name: 'Mystery bag', price_cents: 500, currency: 'XXX' }));
    const items = await send('GET', `/api/v1/orgs/${cafe.handle}/items`);
    expect(items.json().data).toEqual([]);
  });

  it('is refused when a pay link is made', async () => {
    expectNoRate(await send('POST', `/api/v1/orgs/${cafe.handle}/pay-links`, { currency: 'XXX', amount_minor: 1000, memo: 'Catering' }));
    expect((await send('GET', `/api/v1/orgs/${cafe.handle}/pay-links`)).json().data).toEqual([]);
  });

  it('is refused when a prepaid card is issued', async () => {
    expectNoRate(await send('POST', '/api/pos/prepaid-cards', { org_handle: cafe.handle, amount_minor: 2500, currency: 'XXX' }));
  });

  it('a currency with a rate is made as before', async () => {
    const item = await send('POST', '/api/v1/items', { org_handle: cafe.handle, name: 'Croissant', price_cents: 450, currency: 'EUR' });
    expect(item.statusCode).toBe(201);
  });
});

describe('a top-up item', () => {
  let itemId: string;
  beforeAll(async () => {
    const item = await send('POST', '/api/v1/items', {
      org_handle: cafe.handle,
      name: 'Tip jar',
      price_cents: 300,
      currency: 'USD',
      price_type: 'top_up',
    });
    expect(item.statusCode).toBe(201);
    itemId = item.json().id;
  });
  const order = (line: object) => send('POST', '/api/pos/orders', { org_handle: cafe.handle, lines: [{ item_id: itemId, ...line }] });

  it('refuses a chosen price of 0 rather than charging the suggested price', async () => {
    const refused = await order({ chosen_price_minor: 0 });
    expectError(refused, 422, 'validation_failed');
    expect(refused.json().error.message).toMatch(/more than 0/);
    expect(refused.json().error.details.field).toContain('chosen_price_minor');
  });

  it('charges the suggested price when none is chosen, and the chosen one otherwise, each shown on the order', async () => {
    const suggested = await order({});
    expect(suggested.statusCode).toBe(201);
    expect(suggested.json()).toMatchObject({ lines: [{ unit_price_minor: 300 }], subtotal_minor: 300 });
    const chosen = await order({ chosen_price_minor: 750 });
    expect(chosen.statusCode).toBe(201);
    expect(chosen.json()).toMatchObject({ lines: [{ unit_price_minor: 750 }], subtotal_minor: 750 });
  });
});
