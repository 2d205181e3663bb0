import { z } from 'zod';
import { isoTime, named, pageOf } from '../routes/answer-schema.js';

/** What the item routes answer: the organisation's items as the pos service keeps them, prices in minor units. */

export const TAX_TREATMENTS = ['standard', 'reduced', 'exempt'] as const;
export const PRICE_TYPES = ['fixed', 'minimum', 'top_up'] as const;

const EXAMPLE_ITEM = {
  id: '1b7e3c9a-5d2f-4a8e-9c6b-0e4a2f8d6c31',
  name: 'Oat milk latte',
  description: 'Double shot, 12 oz',
  price_cents: 575,
  currency: 'USD',
  category: 'coffee',
  sku: 'LAT-OAT-12',
  available: true,
  tax_treatment: 'standard' as const,
  tax_rate: null,
  price_type: 'fixed' as const,
  inventory: 120,
  modifiers: [
    { id: '8d3f6a1c-2e4b-4f7a-9c5d-1b0e7a3c6f92', name: 'Small', price_cents: 0, group: 'Size' },
    { id: '4a9c2e7f-6b1d-4e3a-8f5c-0d7b2a9e4c18', name: 'Large', price_cents: 75, group: 'Size' },
    { id: 'e5b1d8a3-9f2c-4a6e-b7d0-3c8f1a5e2b47', name: 'Extra shot', price_cents: 90, group: null },
  ],
  created_at: '2026-03-02T09:30:00.000Z',
};

const modifier = z.object({
  id: z.uuid(),
  name: z.string(),
  price_cents: z.number().int().describe('Added to the item price, in minor units of its currency'),
  group: z.string().nullable().describe('Choices of one group exclude each other on a line; null: combinable'),
});

export const item = named(
  'Item',
  z.object({
    id: z.uuid(),
    name: z.string(),
    description: z.string(),
    price_cents: z.number().int().describe('Minor units of currency'),
    currency: z.string(),
    category: z.string().nullable(),
    sku: z.string().nullable(),
    available: z.boolean(),
    tax_treatment: z
      .enum(TAX_TREATMENTS)
      .describe("standard: the jurisdiction's rate at the time of sale; reduced: tax_rate; exempt: none"),
    tax_rate: z.string().nullable().describe('For a reduced item, the rate as a decimal string (e.g. "0.05"); null otherwise'),
    price_type: z.enum(PRICE_TYPES).describe('fixed; minimum: the payer pays at least price_cents; top_up: the payer chooses'),
    inventory: z.number().int().nullable().describe('Units in stock; null when not tracked'),
    modifiers: z.array(modifier),
    created_at: z.string(),
  }),
  EXAMPLE_ITEM,
);
export type ItemAnswer = z.infer<typeof item>;
export const itemPage = pageOf('Item', item);

const ALMOND_CROISSANT = {
  ...EXAMPLE_ITEM,
  id: 'c3a9e5f1-7b2d-4c8e-a6f0-9d1b3e5a7c24',
  name: 'Almond croissant',
  description: '',
  price_cents: 425,
  category: 'bakery',
  sku: 'CRO-ALM',
  tax_treatment: 'reduced' as const,
  tax_rate: '0.05',
  inventory: null,
  modifiers: [],
  created_at: '2026-03-02T09:41:00.000Z',
};

export const menu = named(
  'Menu',
  z.object({
    version: z.number().int().describe('0 before the first save, one more with each replacement; the ETag is "<version>"'),
    updated_at: isoTime.nullable().describe('null before the first save'),
    sections: z.array(
      z.object({
        name: z.string(),
        item_ids: z.array(z.uuid()),
        items: z.array(item).describe('The items of item_ids, in the same order'),
      }),
    ),
    tip_basis_points: z
      .array(z.number().int())
      .describe(
        'The tip choices the counter offers, in basis points (1000 = 10%), ascending; 1000, 1500, 2000 until the merchant sets others',
      ),
  }),
  {
    version: 4,
    updated_at: '2026-03-05T07:15:00.000Z',
    sections: [
      { name: 'Coffee', item_ids: [EXAMPLE_ITEM.id], items: [EXAMPLE_ITEM] },
      { name: 'Bakery', item_ids: [ALMOND_CROISSANT.id], items: [ALMOND_CROISSANT] },
    ],
    tip_basis_points: [1000, 1500, 2000],
  },
);
export type MenuAnswer = z.infer<typeof menu>;
