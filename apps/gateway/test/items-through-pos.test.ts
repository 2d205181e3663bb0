import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Gateway } from '../src/app.js';
import { addMember, bearer, onboard, startTestGateway } from './harness.js';
import { startPosStack } from './pos-harness.js';
import { SERVICES_DOWN, uniqueName } from './support.js';

describe('items through the gateway and the pos service over gRPC', () => {
  let stack: Awaited<ReturnType<typeof startPosStack>>;
  let gateway: Gateway;
  beforeAll(async () => {
    stack = await startPosStack();
    gateway = stack.gateway;
  });
  afterAll(async () => {
    await stack?.close();
  });

  const post = (key: string, handle: string, payload: object) =>
    gateway.app.inject({ method: 'POST', url: `/api/v1/orgs/${handle}/items`, headers: bearer(key), payload });
  const list = (key: string, handle: string, query = '') =>
    gateway.app.inject({ method: 'GET', url: `/api/v1/orgs/${handle}/items${query}`, headers: bearer(key) });

  it('lets staff add an item and list it back, with the price as an integer of cents', async () => {
    const owner = await onboard(gateway, uniqueName('Corner Cafe'));
    const staff = await addMember(gateway, owner, 'staff');
    const created = await post(staff.key, owner.handle, { name: 'Flat white', price_cents: 450, sku: 'FW-1' });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({ name: 'Flat white', price_cents: 450, currency: 'USD', sku: 'FW-1', available: true });
    const listed = await list(staff.key, owner.handle);
    expect(listed.statusCode).toBe(200);
    expect(listed.json()).toEqual({ data: [created.json()], next_cursor: null });
  });

  it('pages through items with the cursor, newest first, without gaps or duplicates', async () => {
    const owner = await onboard(gateway, uniqueName('Market Stall'));
    for (let n = 1; n <= 5; n++)
      expect((await post(owner.key, owner.handle, { name: `Item ${n}`, price_cents: n * 100 })).statusCode).toBe(201);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { data: Array<{ name: string }>; next_cursor: string | null } = (
        await list(owner.key, owner.handle, `?limit=2${cursor ? `&cursor=${cursor}` : ''}`)
      ).json();
      seen.push(...page.data.map((item) => item.name));
      cursor = page.next_cursor;
    } while (cursor);
    expect(seen).toEqual(['Item 5', 'Item 4', 'Item 3', 'Item 2', 'Item 1']);
  });

  it('never shows one organisation the items of another, even to its owner', async () => {
    const a = await onboard(gateway, uniqueName('Bakery A'));
    const b = await onboard(gateway, uniqueName('Bakery B'));
    await post(a.key, a.handle, { name: 'Secret sourdough', price_cents: 800 });
    const forbidden = await list(b.key, a.handle);
    expect(forbidden.statusCode).toBe(403);
    expect(forbidden.body).not.toContain('Secret sourdough');
    expect((await list(b.key, b.handle)).json().data).toEqual([]);
  });

  it("passes the service's own errors through with their codes: a duplicate sku is a 409", async () => {
    const owner = await onboard(gateway, uniqueName('Tea House'));
    expect((await post(owner.key, owner.handle, { name: 'Sencha', price_cents: 500, sku: 'T-1' })).statusCode).toBe(201);
    const duplicate = await post(owner.key, owner.handle, { name: 'Sencha again', price_cents: 500, sku: 'T-1' });
    expect(duplicate.statusCode).toBe(409);
    expect(duplicate.json().error.code).toBe('already_exists');
  });

  it('has each rule on an item enforced once, by pos, and its refusal named through the gateway as a 422', async () => {
    const owner = await onboard(gateway, uniqueName('Rules Cafe'));
    const valid = { name: 'Flat white', price_cents: 450 };
    for (const [field, value, message] of [
      ['name', '   ', 'name is required'],
      ['name', 'n'.repeat(201), 'name must be at most 200 characters'],
      ['description', 'd'.repeat(2001), 'description must be at most 2000 characters'],
      ['category', 'c'.repeat(61), 'category must be at most 60 characters'],
      ['sku', 's'.repeat(65), 'sku must be at most 64 characters'],
      ['price_cents', -1, 'price_cents must not be negative'],
      ['price_cents', 1_000_000_000_001, 'price_cents must be at most 1000000000000'],
      ['currency', 'usd', 'currency must be an ISO 4217 code of three upper-case letters, such as USD'],
    ] as const) {
      const response = await post(owner.key, owner.handle, { ...valid, [field]: value });
      expect({ field, status: response.statusCode }).toEqual({ field, status: 422 });
      expect(response.json().error).toMatchObject({ code: 'validation_failed', details: { field } });
      expect(response.json().error.message).toContain(message);
    }
    // At the limits, pos takes them: nothing in front of it is stricter.
    const atLimits = await post(owner.key, owner.handle, {
      ...valid,
      name: 'n'.repeat(200),
      description: 'd'.repeat(2000),
      category: 'c'.repeat(60),
      sku: 's'.repeat(64),
      price_cents: 1_000_000_000_000,
      currency: 'EUR',
    });
    expect(atLimits.statusCode).toBe(201);
    expect((await list(owner.key, owner.handle)).json().data).toHaveLength(1);
  });

  it('refuses, in the gateway, only what is not the shape of an item: a wrong type, a missing field, an unknown key', async () => {
    const owner = await onboard(gateway, uniqueName('Shape Cafe'));
    for (const [payload, field] of [
      [{ name: 42, price_cents: 450 }, 'name'],
      [{ name: 'Tea', price_cents: 4.5 }, 'price_cents'],
      [{ name: 'Tea' }, 'price_cents'],
      [{ price_cents: 450 }, 'name'],
      [{ name: 'Tea', price_cents: 450, available: 'yes' }, 'available'],
      [{ name: 'Tea', price_cents: 450, colour: 'green' }, 'colour'],
    ] as const) {
      const response = await post(owner.key, owner.handle, payload);
      expect({ field, status: response.statusCode }).toEqual({ field, status: 422 });
      expect(response.json().error.details.issues.map((i: { field: string }) => i.field)).toContain(field);
    }
    expect((await list(owner.key, owner.handle)).json().data).toEqual([]);
  });

  it('replays an item creation retried with the same Idempotency-Key instead of adding it twice', async () => {
    const owner = await onboard(gateway, uniqueName('Juice Bar'));
    const send = () =>
      gateway.app.inject({
        method: 'POST',
        url: `/api/v1/orgs/${owner.handle}/items`,
        headers: { ...bearer(owner.key), 'idempotency-key': 'add-mango-1' },
        payload: { name: 'Mango', price_cents: 550 },
      });
    const first = await send();
    const retry = await send();
    expect(retry.statusCode).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.json()).toEqual(first.json());
    expect((await list(owner.key, owner.handle)).json().data).toHaveLength(1);
  });

  it('marks pos as set up in the personalised capability map once there is an item', async () => {
    const owner = await onboard(gateway, uniqueName('Noodle Bar'));
    const posSetUp = async () => {
      const map = (
        await gateway.app.inject({ method: 'GET', url: `/api/v1/orgs/${owner.handle}/capabilities`, headers: bearer(owner.key) })
      ).json();
      return map.rungs
        .flatMap((r: { capabilities: Array<{ id: string; set_up: boolean | null }> }) => r.capabilities)
        .find((c: { id: string }) => c.id === 'pos').set_up;
    };
    expect(await posSetUp()).toBe(false);
    await post(owner.key, owner.handle, { name: 'Ramen', price_cents: 1200 });
    expect(await posSetUp()).toBe(true);
  });

  it('answers 503 unavailable, not 500, when the pos service is down', async () => {
    const down = await startTestGateway(SERVICES_DOWN);
    try {
      const owner = await onboard(down, uniqueName('Closed Cafe'));
      const response = await down.app.inject({ method: 'GET', url: `/api/v1/orgs/${owner.handle}/items`, headers: bearer(owner.key) });
      expect(response.statusCode).toBe(503);
      expect(response.json().error.code).toBe('unavailable');
    } finally {
      await down.close();
    }
  });
});
