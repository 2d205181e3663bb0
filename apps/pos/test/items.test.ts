import { AppError } from '@ctk/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Item } from '@ctk/proto/ctk/pos/v1/pos';
import { newItem, newOrg, startTestPos } from './support.js';

describe('pos items', () => {
  let pos: Awaited<ReturnType<typeof startTestPos>>;
  beforeAll(async () => {
    pos = await startTestPos();
  });
  afterAll(() => pos.close());

  it('creates an item and returns it with an id, integer price and ISO 8601 creation time', async () => {
    const org = newOrg();
    const { item } = await pos.client.createItem(
      newItem(org, {
        name: '  Croissant ',
        description: 'Butter',
        priceCents: 1_000_000_000_000n,
        category: 'bakery',
        sku: 'CR-1',
      }),
    );
    expect(item).toMatchObject({
      name: 'Croissant',
      description: 'Butter',
      priceCents: 1_000_000_000_000n,
      currency: 'USD',
      category: 'bakery',
      sku: 'CR-1',
      available: true,
    });
    expect(item?.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Date(item?.createdAt ?? '').toISOString()).toBe(item?.createdAt);
  });

  it('takes every text at its limit', async () => {
    const texts = { name: 'n'.repeat(200), description: 'd'.repeat(2000), category: 'c'.repeat(60), sku: 's'.repeat(64) };
    const { item } = await pos.client.createItem(newItem(newOrg(), texts));
    expect(item).toMatchObject(texts);
  });

  it('prices in USD when no currency is given', async () => {
    const { item } = await pos.client.createItem(newItem(newOrg(), { currency: '' }));
    expect(item?.currency).toBe('USD');
  });

  it('lists every item of an organisation across pages, newest first, without duplicates or gaps', async () => {
    const org = newOrg();
    // Created concurrently so that several share a millisecond and the id tie-break is exercised.
    const created = await Promise.all(Array.from({ length: 12 }, (_, i) => pos.client.createItem(newItem(org, { name: `Item ${i}` }))));
    const seen: Item[] = [];
    const pageSizes: number[] = [];
    let cursor = '';
    do {
      const page = await pos.client.listItems({ org, limit: 5, cursor });
      seen.push(...page.items);
      pageSizes.push(page.items.length);
      cursor = page.nextCursor;
    } while (cursor);
    expect(pageSizes).toEqual([5, 5, 2]);
    expect(new Set(seen.map((i) => i.id)).size).toBe(12);
    expect(seen.map((i) => i.id).sort()).toEqual(created.map((c) => c.item?.id).sort());
    const newestFirst = [...seen].sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.id.localeCompare(a.id));
    expect(seen).toEqual(newestFirst);
  });

  it('returns at most 50 items when no limit is given, and no cursor when they all fit', async () => {
    const org = newOrg();
    await pos.client.createItem(newItem(org));
    const page = await pos.client.listItems({ org });
    expect(page.items).toHaveLength(1);
    expect(page.nextCursor).toBe('');
  });

  it('shows a new item in the very next listing, even right after the list was read', async () => {
    const org = newOrg();
    await pos.client.createItem(newItem(org, { name: 'Espresso' }));
    expect((await pos.client.listItems({ org })).items.map((i) => i.name)).toEqual(['Espresso']);
    await pos.client.createItem(newItem(org, { name: 'Cortado' }));
    expect((await pos.client.listItems({ org })).items.map((i) => i.name)).toEqual(['Cortado', 'Espresso']);
  });

  it('never shows one organisation the items of another', async () => {
    const owner = newOrg();
    await pos.client.createItem(newItem(owner));
    const page = await pos.client.listItems({ org: newOrg(), limit: 100 });
    expect(page).toEqual({ items: [], nextCursor: '' });
  });

  it.each([
    ['an empty name', { name: ' ' }, 'name'],
    ['a name over 200 characters', { name: 'x'.repeat(201) }, 'name'],
    ['a description over 2000 characters', { description: 'x'.repeat(2001) }, 'description'],
    ['a category over 60 characters', { category: 'x'.repeat(61) }, 'category'],
    ['a sku over 64 characters', { sku: 'x'.repeat(65) }, 'sku'],
    ['a negative price', { priceCents: -1n }, 'price_cents'],
    ['a price over 10^12 cents', { priceCents: 1_000_000_000_001n }, 'price_cents'],
    ['a lower-case currency', { currency: 'usd' }, 'currency'],
    ['a currency that is not three letters', { currency: 'US' }, 'currency'],
  ])('rejects an item with %s as validation_failed naming the field', async (_, overrides, field) => {
    const error: unknown = await pos.client.createItem(newItem(newOrg(), overrides)).catch((e: unknown) => e);
    expect(AppError.is(error)).toBe(true);
    expect(error).toMatchObject({ code: 'validation_failed', details: { field } });
  });

  it.each([
    ['a limit over 100', { limit: 101 }, 'limit'],
    ['a negative limit', { limit: -1 }, 'limit'],
    ['a cursor it did not issue', { cursor: 'not-a-cursor' }, 'cursor'],
  ])('rejects a listing with %s as validation_failed naming the field', async (_, request, field) => {
    await expect(pos.client.listItems({ org: newOrg(), ...request })).rejects.toMatchObject({
      code: 'validation_failed',
      details: { field },
    });
  });

  it('rejects a second item with the same sku in one organisation as already_exists', async () => {
    const org = newOrg();
    await pos.client.createItem(newItem(org, { sku: 'LATTE-12' }));
    const error: unknown = await pos.client.createItem(newItem(org, { sku: 'LATTE-12' })).catch((e: unknown) => e);
    expect(AppError.is(error)).toBe(true);
    expect(error).toMatchObject({ code: 'already_exists', details: { field: 'sku' } });
  });

  it('allows the same sku in another organisation, and any number of items without a sku', async () => {
    const org = newOrg();
    await pos.client.createItem(newItem(org, { sku: 'LATTE-12' }));
    await expect(pos.client.createItem(newItem(newOrg(), { sku: 'LATTE-12' }))).resolves.toBeDefined();
    await pos.client.createItem(newItem(org));
    await pos.client.createItem(newItem(org));
    expect((await pos.client.listItems({ org })).items).toHaveLength(3);
  });
});
