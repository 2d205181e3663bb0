import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, bearer, onboard, startTestGateway, type Gateway } from './harness.js';
import { startPosStack } from './pos-harness.js';
import { expectError, SERVICES_DOWN, uniqueName } from './support.js';

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

  it('takes tax treatment, price type, inventory and modifiers, and answers them in snake_case with ids for the modifiers', async () => {
    const owner = await onboard(gateway, uniqueName('Options Cafe'));
    const created = await post(owner.key, owner.handle, {
      name: 'Oat milk latte',
      price_cents: 575,
      tax_treatment: 'reduced',
      tax_rate: '0.05',
      price_type: 'minimum',
      inventory: 12,
      modifiers: [
        { name: 'Large', price_cents: 75, group: 'Size' },
        { name: 'Extra shot', price_cents: 90 },
      ],
    });
    expect(created.statusCode).toBe(201);
    const item = created.json();
    expect(item).toMatchObject({ tax_treatment: 'reduced', tax_rate: '0.05', price_type: 'minimum', inventory: 12 });
    expect(item.modifiers).toEqual([
      { id: expect.stringMatching(/^[0-9a-f-]{36}$/), name: 'Large', price_cents: 75, group: 'Size' },
      { id: expect.stringMatching(/^[0-9a-f-]{36}$/), name: 'Extra shot', price_cents: 90, group: null },
    ]);
    const plain = (await post(owner.key, owner.handle, { name: 'Tap water', price_cents: 0, inventory: null })).json();
    expect(plain).toMatchObject({ tax_treatment: 'standard', tax_rate: null, price_type: 'fixed', inventory: null, modifiers: [] });
    expect((await list(owner.key, owner.handle)).json().data).toEqual([plain, item]);
  });

  it("passes pos's refusal of an item's options on as a 422 naming the field", async () => {
    const owner = await onboard(gateway, uniqueName('Strict Cafe'));
    const valid = { name: 'Flat white', price_cents: 450 };
    for (const [extra, field] of [
      [{ tax_treatment: 'reduced' }, 'tax_rate'],
      [{ tax_treatment: 'reduced', tax_rate: '1' }, 'tax_rate'],
      [{ tax_rate: '0.05' }, 'tax_rate'],
      [{ tax_treatment: 'zero-rated' }, 'tax_treatment'],
      [{ price_type: 'free' }, 'price_type'],
      [{ inventory: 1_000_000_001 }, 'inventory'],
      [{ inventory: -1 }, 'inventory'],
      [{ modifiers: [{ name: 'Large', price_cents: -5 }] }, 'modifiers.0.price_cents'],
      [{ modifiers: [{ name: 'Oat\u0000', price_cents: 5 }] }, 'modifiers.0.name'],
      [{ modifiers: [{ name: 'Oat\u001b', price_cents: 5 }] }, 'modifiers.0.name'],
      [
        {
          modifiers: [
            { name: 'Large', price_cents: 5, group: 'Size' },
            { name: 'Large', price_cents: 9, group: 'Size' },
          ],
        },
        'modifiers.1.name',
      ],
      [{ modifiers: [{ name: 'Large', price_cents: 5, id: 'mine' }] }, 'modifiers.0.id'],
      [{ modifiers: [{ name: 'Large', price_cents: 5.5 }] }, 'modifiers.0.price_cents'],
    ] as const) {
      const response = await post(owner.key, owner.handle, { ...valid, ...extra });
      expect({ field, status: response.statusCode }).toEqual({ field, status: 422 });
      expect(response.json().error.details.issues.map((i: { field: string }) => i.field)).toContain(field);
    }
    expect((await list(owner.key, owner.handle)).json().data).toEqual([]);
  });

  describe('POST /api/v1/items: for the caller, in the organisation org_handle names or their only one', () => {
    const postForCaller = (key: string | undefined, payload: object) =>
      gateway.app.inject({ method: 'POST', url: '/api/v1/items', headers: key ? bearer(key) : {}, payload });
    const orgItems = async (key: string, handle: string) =>
      ((await list(key, handle)).json().data as Array<{ name: string }>).map((i) => i.name);

    it('answers 401 without a key, and adds nothing', async () => {
      expectError(await postForCaller(undefined, { name: 'Tea', price_cents: 300 }), 401, 'unauthenticated');
    });

    it("adds the item to a staff member's only organisation when org_handle is absent: 201 with the item", async () => {
      const owner = await onboard(gateway, uniqueName('Solo Cafe'));
      const staff = await addMember(gateway, owner, 'staff');
      const response = await postForCaller(staff.key, { name: 'Chai', price_cents: 400, tax_treatment: 'exempt' });
      expect(response.statusCode).toBe(201);
      expect(response.json()).toMatchObject({ name: 'Chai', price_cents: 400, tax_treatment: 'exempt', modifiers: [] });
      expect(await orgItems(owner.key, owner.handle)).toEqual(['Chai']);
    });

    it('needs org_handle from a caller of several organisations, and then adds the item there', async () => {
      const owner = await onboard(gateway, uniqueName('First Shop'));
      const second = await gateway.app.inject({
        method: 'POST',
        url: '/api/v1/organizations',
        headers: bearer(owner.key),
        payload: { name: uniqueName('Second Shop') },
      });
      expect(second.statusCode).toBe(201);
      const secondHandle = second.json().organization.handle as string;
      const unnamed = await postForCaller(owner.key, { name: 'Mocha', price_cents: 500 });
      expectError(unnamed, 422, 'validation_failed');
      expect(unnamed.json().error.details.field).toBe('org_handle');
      const named = await postForCaller(owner.key, { org_handle: secondHandle, name: 'Mocha', price_cents: 500 });
      expect(named.statusCode).toBe(201);
      expect(await orgItems(owner.key, secondHandle)).toEqual(['Mocha']);
      expect(await orgItems(owner.key, owner.handle)).toEqual([]);
    });

    it('answers 403 for an organisation the caller is not staff of, 404 for one that does not exist, 422 for a malformed handle', async () => {
      const owner = await onboard(gateway, uniqueName('Guarded Cafe'));
      const stranger = await onboard(gateway, uniqueName('Stranger Cafe'));
      expectError(await postForCaller(stranger.key, { org_handle: owner.handle, name: 'Spy', price_cents: 1 }), 403, 'forbidden');
      expectError(await postForCaller(stranger.key, { org_handle: 'no-such-shop-at-all', name: 'Spy', price_cents: 1 }), 404, 'not_found');
      const malformed = await postForCaller(stranger.key, { org_handle: 'Not A Handle\u0000', name: 'Spy', price_cents: 1 });
      expectError(malformed, 422, 'validation_failed');
      expect(malformed.json().error.details.field).toBe('org_handle');
      expect(await orgItems(owner.key, owner.handle)).toEqual([]);
    });

    it('answers 403 to a caller who is a member of no organisation', async () => {
      const owner = await onboard(gateway, uniqueName('Leaving Cafe'));
      const staff = await addMember(gateway, owner, 'staff');
      const removed = await gateway.app.inject({
        method: 'DELETE',
        url: `/api/v1/orgs/${owner.handle}/members/${staff.userId}`,
        headers: bearer(owner.key),
      });
      expect(removed.statusCode).toBeLessThan(300);
      const response = await postForCaller(staff.key, { name: 'Ghost latte', price_cents: 450 });
      expectError(response, 403, 'forbidden');
      expect(await orgItems(owner.key, owner.handle)).toEqual([]);
    });

    it('passes pos refusals on, and replays a retry with the same Idempotency-Key', async () => {
      const owner = await onboard(gateway, uniqueName('Retry Cafe'));
      const refused = await postForCaller(owner.key, { name: 'Latte', price_cents: 450, tax_treatment: 'reduced', tax_rate: '0' });
      expectError(refused, 422, 'validation_failed');
      expect(refused.json().error.details.field).toBe('tax_rate');
      const send = () =>
        gateway.app.inject({
          method: 'POST',
          url: '/api/v1/items',
          headers: { ...bearer(owner.key), 'idempotency-key': 'caller-item-1' },
          payload: { name: 'Latte', price_cents: 450 },
        });
      const first = await send();
      const retry = await send();
      expect(first.statusCode).toBe(201);
      expect(retry.headers['idempotent-replayed']).toBe('true');
      expect(retry.json()).toEqual(first.json());
      expect(await orgItems(owner.key, owner.handle)).toEqual(['Latte']);
    });
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
