import { type Org, validate } from '@ctk/shared';
import { z } from 'zod';
import type { Item, ItemRepository } from '../data/item-repository.js';

export const MAX_PRICE_CENTS = 10n ** 12n;
const DEFAULT_CURRENCY = 'USD';

const optionalText = (field: string, max: number) =>
  z
    .string()
    .trim()
    .max(max, `${field} must be at most ${max} characters`)
    .transform((value) => value || null);

const newItemSchema = z.object({
  name: z.string().trim().min(1, 'name is required').max(200, 'name must be at most 200 characters'),
  description: z.string().max(2000, 'description must be at most 2000 characters'),
  priceCents: z.bigint().min(0n, 'price_cents must not be negative').max(MAX_PRICE_CENTS, `price_cents must be at most ${MAX_PRICE_CENTS}`),
  currency: z
    .string()
    .transform((value) => value || DEFAULT_CURRENCY)
    .pipe(z.string().regex(/^[A-Z]{3}$/, 'currency must be an ISO 4217 code of three upper-case letters, such as USD')),
  category: optionalText('category', 60),
  sku: optionalText('sku', 64),
  available: z.boolean(),
});

export type NewItemInput = z.input<typeof newItemSchema>;

/**
 * Adds an item to the organisation's catalogue; a sku, when given, is unique within the organisation.
 * The limits above are the only ones: the gateway checks only an item's shape, and passes these
 * refusals on as 422s naming the field.
 */
export async function createItem(items: ItemRepository, org: Org, input: NewItemInput): Promise<Item> {
  const item = validate(newItemSchema, input);
  return items.create({ organizationId: org.id, ...item });
}
