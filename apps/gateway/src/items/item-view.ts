import type { Item } from '@ctk/proto/ctk/pos/v1/pos';
import { AppError } from '@ctk/shared';
import { PRICE_TYPES, TAX_TREATMENTS, type ItemAnswer } from './item-answers.js';

/** An item as pos answers it, as the API shows it. */
export function itemView(item: Item | undefined): ItemAnswer {
  if (!item) throw new AppError('internal', 'pos answered without the item');
  return {
    id: item.id,
    name: item.name,
    description: item.description,
    price_cents: Number(item.priceCents),
    currency: item.currency,
    category: item.category || null,
    sku: item.sku || null,
    available: item.available,
    tax_treatment: oneOf(TAX_TREATMENTS, item.taxTreatment, 'tax_treatment'),
    tax_rate: item.taxRate || null,
    price_type: oneOf(PRICE_TYPES, item.priceType, 'price_type'),
    inventory: item.inventory === undefined ? null : Number(item.inventory),
    modifiers: item.modifiers.map((modifier) => ({
      id: modifier.id,
      name: modifier.name,
      price_cents: Number(modifier.priceCents),
      group: modifier.group || null,
    })),
    created_at: item.createdAt,
  };
}

/** The document lists these values: one pos answers outside them is pos's bug, not something to pass on. */
function oneOf<T extends string>(values: readonly T[], value: string, field: string): T {
  if (!(values as readonly string[]).includes(value)) throw new AppError('internal', `pos answered an item with ${field} "${value}"`);
  return value as T;
}
