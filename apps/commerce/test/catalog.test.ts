import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failure, startCommerceStack, type CommerceStack } from './commerce-stack.js';

let stack: CommerceStack;
beforeAll(async () => {
  stack = await startCommerceStack();
}, 60_000);
afterAll(() => stack?.close());

describe('the catalog, read from pos', () => {
  it('without a menu: the available items by category (the uncategorised last), public fields only', async () => {
    const org = await stack.walletOrg();
    const scone = await stack.item(org, { name: 'Scone', priceCents: 325n, category: 'Bakery', sku: 'SC-1', inventory: 0n });
    const latte = await stack.item(org, {
      name: 'Latte',
      priceCents: 450n,
      category: 'Coffee',
      description: 'Double shot',
      taxTreatment: 'reduced',
      taxRate: '0.05',
      modifiers: [{ id: '', name: 'Oat milk', priceCents: 50n, group: '' }],
    });
    const mug = await stack.item(org, { name: 'Mug', priceCents: 1200n });
    await stack.item(org, { name: 'Hidden', priceCents: 100n, category: 'Coffee', available: false });

    const { catalog } = await stack.client.getCatalog({ org });
    expect(catalog?.sections).toEqual([
      { name: 'Bakery', itemIds: [scone.id] },
      { name: 'Coffee', itemIds: [latte.id] },
      { name: 'Other', itemIds: [mug.id] },
    ]);
    expect(catalog?.items.map((item) => item.name)).toEqual(['Scone', 'Latte', 'Mug']);
    expect(catalog?.items[1]).toEqual({
      id: latte.id,
      name: 'Latte',
      description: 'Double shot',
      priceMinor: 450n,
      currency: 'USD',
      category: 'Coffee',
      priceType: 'fixed',
      soldOut: false,
      modifiers: [{ id: latte.modifiers[0]!.id, name: 'Oat milk', priceMinor: 50n, group: undefined }],
    });
    // Tracked stock at 0 shows as sold out; the count, the sku and the tax treatment are not shown.
    expect(catalog?.items[0]?.soldOut).toBe(true);
    expect(JSON.stringify(catalog, (_key, value) => (typeof value === 'bigint' ? String(value) : value))).not.toMatch(/SC-1|0\.05|Hidden/);

    expect((await stack.client.getCatalogItem({ org, id: latte.id })).item?.name).toBe('Latte');
    expect(await stack.client.getStorefront({ org })).toEqual({ currencies: ['USD'], itemsForSale: 3 });
  });

  it('with a saved menu: its sections in order, an item in two sections listed once, items off the menu not for sale', async () => {
    const org = await stack.walletOrg();
    const tea = await stack.item(org, { name: 'Tea', priceCents: 300n });
    const cake = await stack.item(org, { name: 'Cake', priceCents: 500n, currency: 'EUR' });
    const off = await stack.item(org, { name: 'Off menu', priceCents: 700n });
    const away = await stack.item(org, { name: 'Away', priceCents: 700n, available: false });
    await stack.pos.replaceMenu({
      org,
      expectedVersion: 0n,
      sections: [
        { name: 'Drinks', itemIds: [tea.id, away.id] },
        { name: 'Specials', itemIds: [cake.id, tea.id] },
        { name: 'Gone', itemIds: [away.id] },
      ],
    });
    const { catalog } = await stack.client.getCatalog({ org });
    expect(catalog?.sections).toEqual([
      { name: 'Drinks', itemIds: [tea.id] },
      { name: 'Specials', itemIds: [cake.id, tea.id] },
    ]);
    expect(catalog?.items.map((item) => item.id)).toEqual([tea.id, cake.id]);
    expect(await stack.client.getStorefront({ org })).toEqual({ currencies: ['USD', 'EUR'], itemsForSale: 2 });
    for (const id of [off.id, away.id]) expect((await failure(stack.client.getCatalogItem({ org, id }))).code).toBe('not_found');
  });

  it("never lists another organisation's item", async () => {
    const org = await stack.walletOrg();
    const other = await stack.walletOrg();
    const theirs = await stack.item(other, { name: 'Theirs', priceCents: 100n });
    expect((await stack.client.getCatalog({ org })).catalog).toEqual({ sections: [], items: [] });
    expect((await failure(stack.client.getCatalogItem({ org, id: theirs.id }))).code).toBe('not_found');
    expect(await stack.client.getStorefront({ org })).toEqual({ currencies: [], itemsForSale: 0 });
  });
});
