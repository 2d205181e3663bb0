import { AppError, freeText, lineOfText, type Org, parseTaxRate, validate } from '@ctk/shared';
import { z } from 'zod';
import type { Item, ItemRepository } from '../data/item-repository.js';
import type { PriceSource } from '../rates/exchange-rate.js';
import { requireRate } from '../rates/require-rate.js';

export const MAX_PRICE_CENTS = 10n ** 12n;
export const MAX_INVENTORY = 10n ** 9n;
export const MAX_MODIFIERS = 50;
export const TAX_TREATMENTS = ['standard', 'reduced', 'exempt'] as const;
export const PRICE_TYPES = ['fixed', 'minimum', 'top_up'] as const;
const DEFAULT_CURRENCY = 'USD';

const optionalText = (field: string, max: number) =>
  lineOfText(field, max)
    .optional()
    .transform((value) => value || null);

/** An empty string (proto3's "not set") becomes the default, then must be one of the values. */
const oneOf = <T extends readonly [string, ...string[]]>(field: string, values: T, fallback: T[number]) =>
  z
    .string()
    .transform((value) => value || fallback)
    .pipe(z.enum(values, { error: `${field} must be one of ${values.join(', ')}` }));

const priceCents = z
  .bigint()
  .min(0n, 'price_cents must not be negative')
  .max(MAX_PRICE_CENTS, `price_cents must be at most ${MAX_PRICE_CENTS}`);

const modifierSchema = z
  .object({
    id: z.string().max(0, 'pos gives each modifier its id: send none').optional(),
    name: lineOfText('name', 60).pipe(z.string().min(1, 'name is required')),
    priceCents,
    group: optionalText('group', 60),
  })
  .transform(({ id: _, ...modifier }) => modifier);

const newItemSchema = z
  .object({
    name: lineOfText('name', 200).pipe(z.string().min(1, 'name is required')),
    description: freeText('description', 2000),
    priceCents,
    currency: z
      .string()
      .transform((value) => value || DEFAULT_CURRENCY)
      .pipe(z.string().regex(/^[A-Z]{3}$/, 'currency must be an ISO 4217 code of three upper-case letters, such as USD')),
    category: optionalText('category', 60),
    sku: optionalText('sku', 64),
    available: z.boolean().default(true),
    taxTreatment: oneOf('tax_treatment', TAX_TREATMENTS, 'standard'),
    taxRate: z.string().max(20, 'tax_rate must be a decimal string such as "0.05"'),
    priceType: oneOf('price_type', PRICE_TYPES, 'fixed'),
    inventory: z
      .bigint()
      .min(0n, 'inventory must not be negative')
      .max(MAX_INVENTORY, `inventory must be at most ${MAX_INVENTORY}`)
      .nullish()
      .transform((units) => units ?? null),
    modifiers: z.array(modifierSchema).max(MAX_MODIFIERS, `an item has at most ${MAX_MODIFIERS} modifiers`),
  })
  .superRefine((item, context) => {
    const rateProblem = taxRateProblem(item.taxTreatment, item.taxRate);
    if (rateProblem) context.addIssue({ code: 'custom', path: ['taxRate'], message: rateProblem });
    const seen = new Set<string>();
    item.modifiers.forEach((modifier, index) => {
      // Case aside, two choices of one name in one group could not be told apart on a receipt.
      const key = JSON.stringify([modifier.group?.toLowerCase() ?? null, modifier.name.toLowerCase()]);
      if (seen.has(key)) {
        const where = modifier.group ? `group "${modifier.group}"` : 'the modifiers without a group';
        context.addIssue({
          code: 'custom',
          path: ['modifiers', index, 'name'],
          message: `"${modifier.name}" is already a modifier in ${where}`,
        });
      }
      seen.add(key);
    });
  })
  .transform(({ taxRate, ...item }) => ({ ...item, taxRate: item.taxTreatment === 'reduced' ? taxRate : null }));

export type NewItemInput = z.input<typeof newItemSchema>;

/** Why this rate does not go with this treatment, or null: only a reduced item names a rate, strictly between 0 and 1. */
function taxRateProblem(treatment: (typeof TAX_TREATMENTS)[number], rate: string): string | null {
  if (treatment !== 'reduced') return rate ? `tax_rate is only for a reduced tax_treatment; a ${treatment} item has none` : null;
  if (!rate) return 'tax_rate is required for a reduced tax_treatment: a decimal string such as "0.05"';
  try {
    const { numerator, denominator } = parseTaxRate(rate);
    if (numerator === 0n || numerator >= denominator)
      return `tax_rate must be strictly between 0 and 1 for a reduced tax_treatment (use "exempt" for no tax)`;
    return null;
  } catch (error) {
    if (AppError.is(error)) return error.message;
    throw error;
  }
}

/**
 * Adds an item to the organisation's catalogue; a sku, when given, is unique within the organisation.
 * The limits above are the only ones: the gateway checks only an item's shape, and passes these
 * refusals on as 422s naming the field.
 */
export async function createItem(items: ItemRepository, prices: PriceSource, org: Org, input: NewItemInput): Promise<Item> {
  const item = validate(newItemSchema, input);
  await requireRate(prices, item.currency);
  return items.create({ organizationId: org.id, ...item });
}
