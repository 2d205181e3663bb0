import { z } from 'zod';
import { handleField } from '../identity/organization-fields.js';

export const orgParams = z.object({ handle: handleField });

// Only the shape of an item: pos owns its rules (lengths, the price range, the currency, the tax rate,
// the modifiers' limits) and names the field it refuses.
const newModifier = z
  .object({
    name: z.string(),
    price_cents: z.number().int().describe('Added to the item price, in minor units of its currency; 0 for a free choice'),
    group: z.string().optional().describe('Choices of one group exclude each other on a line (e.g. "Size"); absent: combinable'),
  })
  .strict();

const itemFields = {
  name: z.string(),
  description: z.string().optional(),
  price_cents: z.number().int().describe('Minor units of currency'),
  currency: z.string().optional().describe('ISO 4217, upper case; USD when absent'),
  category: z.string().optional(),
  sku: z.string().optional().describe('Unique within the organisation'),
  available: z.boolean().default(true),
  tax_treatment: z
    .string()
    .optional()
    .describe('"standard" (the jurisdiction\'s rate at the time of sale; the default), "reduced" (with tax_rate) or "exempt"'),
  tax_rate: z.string().optional().describe('For "reduced" only: a decimal string strictly between 0 and 1, e.g. "0.05"'),
  price_type: z
    .string()
    .optional()
    .describe(
      '"fixed" (the default), "minimum" (the payer pays at least price_cents) or "top_up" (the payer chooses; price_cents is suggested)',
    ),
  inventory: z.number().int().nullable().optional().describe('Units in stock, 0 to 10^9; absent or null: not tracked'),
  modifiers: z.array(newModifier).optional().describe('In the order they are offered; pos gives each an id'),
};

export const newItem = z.object(itemFields).strict();

/** POST /api/v1/items: an item for the caller's organisation, named by org_handle unless the caller has only one. */
export const newCallerItem = z
  .object({
    org_handle: handleField.optional().describe('The organisation the item is for; required when the caller belongs to several'),
    ...itemFields,
  })
  .strict();

export type NewItemBody = z.infer<typeof newItem>;

const menuSection = z
  .object({
    name: z.string(),
    item_ids: z.array(z.string()).describe("The section's items in order, each an item of the organisation"),
  })
  .strict();

/** PUT /api/v1/orgs/:handle/menu: the whole menu, sections in order, and the tip choices of the counter. */
export const menuReplacement = z
  .object({
    sections: z.array(menuSection),
    tip_basis_points: z
      // Bounded to int32 here so that the protobuf encoding cannot wrap a huge number into a valid choice; pos names its own rules.
      .array(z.number().int().min(-2_147_483_648).max(2_147_483_647))
      .optional()
      .describe(
        'The tip choices the counter offers, in basis points (1000 = 10%): at most 6, each 1 to 10000, distinct; answered ascending. ' +
          'The menu is replaced as a whole: absent or empty means the default 1000, 1500, 2000. "None" and a custom tip are always offered.',
      ),
  })
  .strict();

/** Request examples of the item routes. */

export const newItemExample = {
  name: 'Oat milk latte',
  description: 'Double shot, 12 oz',
  price_cents: 575,
  currency: 'USD',
  category: 'coffee',
  sku: 'LAT-OAT-12',
  tax_treatment: 'standard',
  price_type: 'fixed',
  inventory: 120,
  modifiers: [
    { name: 'Small', price_cents: 0, group: 'Size' },
    { name: 'Large', price_cents: 75, group: 'Size' },
    { name: 'Extra shot', price_cents: 90 },
  ],
} satisfies z.input<typeof newItem>;

export const newCallerItemExample = {
  org_handle: 'blue-bottle-cafe',
  name: 'Almond croissant',
  price_cents: 425,
  currency: 'USD',
  category: 'bakery',
  sku: 'CRO-ALM',
  tax_treatment: 'reduced',
  tax_rate: '0.05',
} satisfies z.input<typeof newCallerItem>;

export const menuReplacementExample = {
  sections: [
    { name: 'Coffee', item_ids: ['1b7e3c9a-5d2f-4a8e-9c6b-0e4a2f8d6c31', '6f0d2b8e-3c4a-4e1f-8b7d-2a9c5e1f4d60'] },
    { name: 'Bakery', item_ids: ['c3a9e5f1-7b2d-4c8e-a6f0-9d1b3e5a7c24'] },
  ],
  tip_basis_points: [1000, 1500, 2000],
} satisfies z.input<typeof menuReplacement>;
