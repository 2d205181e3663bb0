import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, bearer, onboard, type Onboarded, type Gateway } from './harness.js';
import { startPosStack } from './pos-harness.js';
import { expectError, uniqueName } from './support.js';

describe('the menu through the gateway and the pos service: ETag and If-Match', () => {
  let stack: Awaited<ReturnType<typeof startPosStack>>;
  let gateway: Gateway;
  beforeAll(async () => {
    stack = await startPosStack();
    gateway = stack.gateway;
  });
  afterAll(async () => {
    await stack?.close();
  });

  const menuUrl = (handle: string) => `/api/v1/orgs/${handle}/menu`;
  const getMenu = (key: string, handle: string) => gateway.app.inject({ method: 'GET', url: menuUrl(handle), headers: bearer(key) });
  const putMenu = (key: string, handle: string, payload: object, ifMatch?: string) =>
    gateway.app.inject({
      method: 'PUT',
      url: menuUrl(handle),
      headers: { ...bearer(key), ...(ifMatch === undefined ? {} : { 'if-match': ifMatch }) },
      payload,
    });
  const addItem = async (owner: Onboarded, name: string, extra: object = {}) => {
    const response = await gateway.app.inject({
      method: 'POST',
      url: `/api/v1/orgs/${owner.handle}/items`,
      headers: bearer(owner.key),
      payload: { name, price_cents: 450, ...extra },
    });
    expect(response.statusCode).toBe(201);
    return response.json() as { id: string; name: string };
  };
  const versionOf = (response: LightMyRequestResponse) => response.json().version as number;

  it('answers an empty menu at version 0 with ETag "0", to staff', async () => {
    const owner = await onboard(gateway, uniqueName('Menu Cafe'));
    const staff = await addMember(gateway, owner, 'staff');
    const response = await getMenu(staff.key, owner.handle);
    expect(response.statusCode).toBe(200);
    expect(response.headers.etag).toBe('"0"');
    expect(response.json()).toEqual({ version: 0, updated_at: null, sections: [], tip_basis_points: [1000, 1500, 2000] });
  });

  it('replaces the menu with the ETag read, answers the new one with its ETag, and the sections with their items in snake_case', async () => {
    const owner = await onboard(gateway, uniqueName('Menu Bar'));
    const latte = await addItem(owner, 'Latte', {
      modifiers: [{ name: 'Large', price_cents: 75, group: 'Size' }],
      tax_treatment: 'exempt',
    });
    const scone = await addItem(owner, 'Scone');
    const etag = (await getMenu(owner.key, owner.handle)).headers.etag as string;
    const replaced = await putMenu(
      owner.key,
      owner.handle,
      {
        sections: [
          { name: 'Coffee', item_ids: [latte.id] },
          { name: 'Bakery', item_ids: [scone.id, latte.id] },
        ],
      },
      etag,
    );
    expect(replaced.statusCode).toBe(200);
    expect(replaced.headers.etag).toBe('"1"');
    const menu = replaced.json();
    expect(menu.version).toBe(1);
    expect(new Date(menu.updated_at).toISOString()).toBe(menu.updated_at);
    expect(menu.sections.map((s: { name: string; item_ids: string[] }) => [s.name, s.item_ids])).toEqual([
      ['Coffee', [latte.id]],
      ['Bakery', [scone.id, latte.id]],
    ]);
    expect(menu.sections[0].items[0]).toMatchObject({
      id: latte.id,
      name: 'Latte',
      price_cents: 450,
      tax_treatment: 'exempt',
      tax_rate: null,
      price_type: 'fixed',
      inventory: null,
      modifiers: [{ name: 'Large', price_cents: 75, group: 'Size' }],
    });
    const again = await getMenu(owner.key, owner.handle);
    expect(again.headers.etag).toBe('"1"');
    expect(again.json()).toEqual(menu);
  });

  it("keeps the merchant's tip choices with the menu, ascending; a replacement without them has the default ones", async () => {
    const owner = await onboard(gateway, uniqueName('Tip Cafe'));
    const latte = await addItem(owner, 'Latte');
    const sections = [{ name: 'Coffee', item_ids: [latte.id] }];
    const set = await putMenu(owner.key, owner.handle, { sections, tip_basis_points: [2000, 1250, 1800] }, '"0"');
    expect(set.statusCode).toBe(200);
    expect(set.json().tip_basis_points).toEqual([1250, 1800, 2000]);
    expect((await getMenu(owner.key, owner.handle)).json().tip_basis_points).toEqual([1250, 1800, 2000]);
    const plain = await putMenu(owner.key, owner.handle, { sections }, '"1"');
    expect(plain.json()).toMatchObject({ version: 2, tip_basis_points: [1000, 1500, 2000] });
  });

  it('refuses a stale If-Match with 412 precondition_failed naming the current ETag, and changes nothing', async () => {
    const owner = await onboard(gateway, uniqueName('Stale Cafe'));
    const latte = await addItem(owner, 'Latte');
    expect((await putMenu(owner.key, owner.handle, { sections: [{ name: 'Coffee', item_ids: [latte.id] }] }, '"0"')).statusCode).toBe(200);
    const stale = await putMenu(owner.key, owner.handle, { sections: [] }, '"0"');
    expectError(stale, 412, 'precondition_failed');
    expect(stale.json().error.message).toContain('ETag "1"');
    expect(versionOf(await getMenu(owner.key, owner.handle))).toBe(1);
    expect((await getMenu(owner.key, owner.handle)).json().sections).toHaveLength(1);
  });

  it.each([
    ['no If-Match', undefined, 'needs If-Match'],
    ['If-Match: *', '*', 'If-Match must be the one ETag'],
    ['a weak ETag', 'W/"1"', 'If-Match must be the one ETag'],
    ['a version without quotes', '1', 'If-Match must be the one ETag'],
    ['a list of ETags', '"0", "1"', 'If-Match must be the one ETag'],
    ['an ETag of 40 digits', `"${'9'.repeat(40)}"`, 'If-Match must be the one ETag'],
  ])('refuses a replacement with %s as 412 precondition_failed naming the header and the current ETag', async (_, ifMatch, message) => {
    const owner = await onboard(gateway, uniqueName('Careless Cafe'));
    expect((await putMenu(owner.key, owner.handle, { sections: [] }, '"0"')).statusCode).toBe(200);
    const response = await putMenu(owner.key, owner.handle, { sections: [{ name: 'Tea', item_ids: [] }] }, ifMatch);
    expectError(response, 412, 'precondition_failed');
    expect(response.json().error.message).toContain(message);
    expect(response.json().error.message).toContain('If-Match: "1"');
    expect(response.json().error.details).toMatchObject({ current_version: 1 });
    expect((await getMenu(owner.key, owner.handle)).json()).toMatchObject({ version: 1, sections: [] });
  });

  it('lets one of ten concurrent replacements from the same ETag win; the rest are 412', { tags: ['concurrency'] }, async () => {
    const owner = await onboard(gateway, uniqueName('Busy Cafe'));
    const item = await addItem(owner, 'Latte');
    const responses = await Promise.all(
      Array.from({ length: 10 }, (_, n) =>
        putMenu(owner.key, owner.handle, { sections: [{ name: `Editor ${n}`, item_ids: [item.id] }] }, '"0"'),
      ),
    );
    expect(responses.map((r) => r.statusCode).sort()).toEqual([200, ...Array(9).fill(412)]);
    const winner = responses.find((r) => r.statusCode === 200)!;
    expect((await getMenu(owner.key, owner.handle)).json()).toEqual(winner.json());
  });

  it("refuses another organisation's item with 422 naming its place in the menu", async () => {
    const owner = await onboard(gateway, uniqueName('Honest Cafe'));
    const other = await onboard(gateway, uniqueName('Other Cafe'));
    const mine = await addItem(owner, 'Mine');
    const theirs = await addItem(other, 'Theirs');
    const response = await putMenu(owner.key, owner.handle, { sections: [{ name: 'Coffee', item_ids: [mine.id, theirs.id] }] }, '"0"');
    expectError(response, 422, 'validation_failed');
    expect(response.json().error.details.field).toBe('sections.0.item_ids.1');
    expect(response.body).not.toContain('Theirs');
    expect(versionOf(await getMenu(owner.key, owner.handle))).toBe(0);
  });

  it('refuses, in the gateway, what is not the shape of a menu; and pos names its own rules', async () => {
    const owner = await onboard(gateway, uniqueName('Shape Menu'));
    for (const [payload, field] of [
      [{}, 'sections'],
      [{ sections: [{ name: 'Coffee' }] }, 'sections.0.item_ids'],
      [{ sections: [{ name: 'Coffee', item_ids: [42] }] }, 'sections.0.item_ids.0'],
      [{ sections: [{ name: 'Coffee', item_ids: [], colour: 'brown' }] }, 'sections.0.colour'],
      [{ sections: [], version: 3 }, 'version'],
      [{ sections: [{ name: 'Coffee\u0000', item_ids: [] }] }, 'sections.0.name'],
      [{ sections: [{ name: 'Hot\u0007drinks', item_ids: [] }] }, 'sections.0.name'],
      [{ sections: [{ name: 'x'.repeat(61), item_ids: [] }] }, 'sections.0.name'],
      [{ sections: [{ name: 'Coffee', item_ids: ['latte'] }] }, 'sections.0.item_ids.0'],
      [{ sections: [], tip_basis_points: '15%' }, 'tip_basis_points'],
      [{ sections: [], tip_basis_points: [12.5] }, 'tip_basis_points.0'],
      // 2^32 + 1000 would wrap to 1000 in an int32: refused before it reaches pos.
      [{ sections: [], tip_basis_points: [4_294_968_296] }, 'tip_basis_points.0'],
      [{ sections: [], tip_basis_points: [1000, 0] }, 'tip_basis_points.1'],
      [{ sections: [], tip_basis_points: [1500, 1500] }, 'tip_basis_points.1'],
      [{ sections: [], tip_basis_points: [1, 2, 3, 4, 5, 6, 7] }, 'tip_basis_points'],
      [{ sections: [], tip_basis_points: [10_001] }, 'tip_basis_points.0'],
    ] as const) {
      const response = await putMenu(owner.key, owner.handle, payload, '"0"');
      expect({ field, status: response.statusCode }).toEqual({ field, status: 422 });
      expect(response.json().error.details.issues.map((i: { field: string }) => i.field)).toContain(field);
    }
    expect(versionOf(await getMenu(owner.key, owner.handle))).toBe(0);
  });

  it('keeps the menu to staff of the organisation: 401 without a key, 403 for another organisation', async () => {
    const owner = await onboard(gateway, uniqueName('Private Menu'));
    const stranger = await onboard(gateway, uniqueName('Stranger'));
    expectError(await gateway.app.inject({ method: 'GET', url: menuUrl(owner.handle) }), 401, 'unauthenticated');
    expectError(await getMenu(stranger.key, owner.handle), 403, 'forbidden');
    expectError(await putMenu(stranger.key, owner.handle, { sections: [] }, '"0"'), 403, 'forbidden');
    expect(versionOf(await getMenu(owner.key, owner.handle))).toBe(0);
  });
});
