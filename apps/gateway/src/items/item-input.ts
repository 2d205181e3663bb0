import { z } from 'zod';
import { handleField } from '../identity/organization-fields.js';

export const orgParams = z.object({ handle: handleField });
// Only the shape of an item: pos owns its rules (lengths, the price range, the currency) and names the field it refuses.
export const newItem = z
  .object({
    name: z.string(),
    description: z.string().optional(),
    price_cents: z.number().int().describe('Minor units of currency'),
    currency: z.string().optional().describe('ISO 4217, upper case; USD when absent'),
    category: z.string().optional(),
    sku: z.string().optional().describe('Unique within the organisation'),
    available: z.boolean().default(true),
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
};
