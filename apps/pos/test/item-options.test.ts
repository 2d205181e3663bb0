import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreateItemRequest } from '@ctk/proto/ctk/pos/v1/pos';
import { newItem, newOrg, startTestPos } from './support.js';

/** Tax treatment, price type, inventory and modifiers of an item (decision 0015). */
describe('pos item options', () => {
  let pos: Awaited<ReturnType<typeof startTestPos>>;
  beforeAll(async () => {
    pos = await startTestPos();
  });
  afterAll(() => pos.close());

  const create = (overrides: Partial<CreateItemRequest>, org = newOrg()) => pos.client.createItem(newItem(org, overrides));
  const refusal = (overrides: Partial<CreateItemRequest>) => create(overrides).catch((error: unknown) => error);

  it('makes an item standard-rated, fixed-price, untracked and without modifiers when none of them is given', async () => {
    const { item } = await create({});
    expect(item).toMatchObject({ taxTreatment: 'standard', taxRate: undefined, priceType: 'fixed', modifiers: [] });
    expect(item?.inventory).toBeUndefined();
  });

  it('keeps a reduced rate exactly as given, a price type, stock and modifiers in their order, each with an id of its own', async () => {
    const org = newOrg();
    const { item } = await create(
      {
        name: 'Oat milk latte',
        taxTreatment: 'reduced',
        taxRate: '0.055',
        priceType: 'minimum',
        inventory: 1_000_000_000n,
        modifiers: [
          { id: '', name: 'Small', priceCents: 0n, group: 'Size' },
          { id: '', name: 'Large', priceCents: 75n, group: 'Size' },
          { id: '', name: 'Extra shot', priceCents: 90n, group: '' },
        ],
      },
      org,
    );
    expect(item).toMatchObject({ taxTreatment: 'reduced', taxRate: '0.055', priceType: 'minimum', inventory: 1_000_000_000n });
    expect(item?.modifiers.map(({ name, priceCents, group }) => ({ name, priceCents, group }))).toEqual([
      { name: 'Small', priceCents: 0n, group: 'Size' },
      { name: 'Large', priceCents: 75n, group: 'Size' },
      { name: 'Extra shot', priceCents: 90n, group: undefined },
    ]);
    const ids = item?.modifiers.map((m) => m.id) ?? [];
    expect(ids.every((id) => /^[0-9a-f-]{36}$/.test(id))).toBe(true);
    expect(new Set(ids).size).toBe(3);
    // The listing answers the same item, modifiers and all.
    expect((await pos.client.listItems({ org })).items).toEqual([item]);
  });

  it('takes inventory 0 (sold out, still tracked), an exempt item, a top-up price, and the same modifier name in two groups', async () => {
    const { item } = await create({
      taxTreatment: 'exempt',
      priceType: 'top_up',
      inventory: 0n,
      modifiers: [
        { id: '', name: 'Oat', priceCents: 50n, group: 'Milk' },
        { id: '', name: 'Oat', priceCents: 0n, group: 'Topping' },
      ],
    });
    expect(item).toMatchObject({ taxTreatment: 'exempt', taxRate: undefined, priceType: 'top_up', inventory: 0n });
    expect(item?.modifiers).toHaveLength(2);
  });

  it('takes 50 modifiers with names and groups at their limits', async () => {
    const modifiers = Array.from({ length: 50 }, (_, n) => ({
      id: '',
      name: `${n}`.padEnd(60, 'm'),
      priceCents: 10n ** 12n,
      group: 'g'.repeat(60),
    }));
    const { item } = await create({ modifiers });
    expect(item?.modifiers.map((m) => m.name)).toEqual(modifiers.map((m) => m.name));
  });

  it.each([
    [
      'a tax treatment it does not know',
      { taxTreatment: 'zero' },
      'tax_treatment',
      'tax_treatment must be one of standard, reduced, exempt',
    ],
    ['a reduced treatment without a rate', { taxTreatment: 'reduced' }, 'tax_rate', 'tax_rate is required'],
    ['a reduced rate of 0', { taxTreatment: 'reduced', taxRate: '0' }, 'tax_rate', 'strictly between 0 and 1'],
    ['a reduced rate of 0.000', { taxTreatment: 'reduced', taxRate: '0.000' }, 'tax_rate', 'strictly between 0 and 1'],
    ['a reduced rate of 1', { taxTreatment: 'reduced', taxRate: '1' }, 'tax_rate', 'strictly between 0 and 1'],
    ['a reduced rate that is a percentage', { taxTreatment: 'reduced', taxRate: '5%' }, 'tax_rate', 'not a decimal string'],
    ['a reduced rate over 1', { taxTreatment: 'reduced', taxRate: '1.5' }, 'tax_rate', 'not a decimal string'],
    ['a negative reduced rate', { taxTreatment: 'reduced', taxRate: '-0.1' }, 'tax_rate', 'not a decimal string'],
    ['a rate for a standard item', { taxRate: '0.05' }, 'tax_rate', 'only for a reduced tax_treatment'],
    ['a rate for an exempt item', { taxTreatment: 'exempt', taxRate: '0.05' }, 'tax_rate', 'only for a reduced tax_treatment'],
    ['a price type it does not know', { priceType: 'free' }, 'price_type', 'price_type must be one of fixed, minimum, top_up'],
    ['negative inventory', { inventory: -1n }, 'inventory', 'inventory must not be negative'],
    ['inventory over 10^9', { inventory: 1_000_000_001n }, 'inventory', 'inventory must be at most 1000000000'],
    [
      '51 modifiers',
      { modifiers: Array.from({ length: 51 }, (_, n) => ({ id: '', name: `M${n}`, priceCents: 0n, group: '' })) },
      'modifiers',
      'at most 50 modifiers',
    ],
    [
      'a modifier without a name',
      { modifiers: [{ id: '', name: '  ', priceCents: 0n, group: '' }] },
      'modifiers.0.name',
      'name is required',
    ],
    [
      'a modifier name over 60 characters',
      { modifiers: [{ id: '', name: 'm'.repeat(61), priceCents: 0n, group: '' }] },
      'modifiers.0.name',
      'at most 60',
    ],
    [
      'a modifier group over 60 characters',
      { modifiers: [{ id: '', name: 'Oat', priceCents: 0n, group: 'g'.repeat(61) }] },
      'modifiers.0.group',
      'at most 60',
    ],
    [
      'a negative modifier price',
      { modifiers: [{ id: '', name: 'Oat', priceCents: -1n, group: '' }] },
      'modifiers.0.price_cents',
      'must not be negative',
    ],
    [
      'a modifier price over 10^12',
      { modifiers: [{ id: '', name: 'Oat', priceCents: 10n ** 12n + 1n, group: '' }] },
      'modifiers.0.price_cents',
      'at most',
    ],
    [
      'a modifier with an id of its own',
      { modifiers: [{ id: 'mine', name: 'Oat', priceCents: 0n, group: '' }] },
      'modifiers.0.id',
      'pos gives each modifier its id',
    ],
    [
      'two modifiers of one name in one group, whatever the case',
      {
        modifiers: [
          { id: '', name: 'Large', priceCents: 50n, group: 'Size' },
          { id: '', name: 'large', priceCents: 60n, group: 'size' },
        ],
      },
      'modifiers.1.name',
      '"large" is already a modifier in group "size"',
    ],
    [
      'two modifiers of one name without a group',
      {
        modifiers: [
          { id: '', name: 'Extra shot', priceCents: 50n, group: '' },
          { id: '', name: 'Extra shot', priceCents: 50n, group: '' },
        ],
      },
      'modifiers.1.name',
      'already a modifier in the modifiers without a group',
    ],
    ['a NUL in the name', { name: 'Flat\u0000white' }, 'name', 'must not contain control characters'],
    ['a line feed in the name', { name: 'Flat\nwhite' }, 'name', 'must not contain control characters'],
    ['an escape in the category', { category: 'coffee\u001b[31m' }, 'category', 'must not contain control characters'],
    ['a NUL in the description', { description: 'Double\u0000shot' }, 'description', 'must not contain control characters'],
    // A right-to-left override would show "Flat white" as something else; Hebrew or Arabic names need none.
    ['a right-to-left override in the name', { name: 'Flat \u202ewhite' }, 'name', 'must not contain control characters'],
    ['a directional isolate in the category', { category: '\u2067coffee\u2069' }, 'category', 'must not contain control characters'],
    [
      'a right-to-left override in the description',
      { description: 'Double \u202eshot' },
      'description',
      'must not contain control characters',
    ],
    [
      'a bell in a modifier name',
      { modifiers: [{ id: '', name: 'Oat\u0007', priceCents: 0n, group: '' }] },
      'modifiers.0.name',
      'control characters',
    ],
    [
      'a NUL in a modifier group',
      { modifiers: [{ id: '', name: 'Oat', priceCents: 0n, group: 'Milk\u0000' }] },
      'modifiers.0.group',
      'control characters',
    ],
  ])('refuses an item with %s as validation_failed naming the field, and stores nothing', async (_, overrides, field, message) => {
    const org = newOrg();
    const error = await create(overrides as Partial<CreateItemRequest>, org).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'validation_failed', details: { field } });
    expect((error as Error).message).toContain(message);
    expect((await pos.client.listItems({ org })).items).toEqual([]);
  });

  it('keeps line breaks and tabs in a description', async () => {
    const { item } = await create({ description: 'Double shot\n\tOat milk\r\n' });
    expect(item?.description).toBe('Double shot\n\tOat milk\r\n');
  });

  it('names every bad field at once', async () => {
    const error = await refusal({ taxTreatment: 'zero', priceType: 'free', inventory: -1n });
    const fields = (error as { details: { issues: Array<{ field: string }> } }).details.issues.map((i) => i.field);
    expect(fields).toEqual(expect.arrayContaining(['tax_treatment', 'price_type', 'inventory']));
  });
});
