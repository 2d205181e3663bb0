import type { Item } from '@ctk/proto/ctk/pos/v1/pos';
import { AppError } from '@ctk/shared';
import type { ItemAnswer } from './item-answers.js';

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
    created_at: item.createdAt,
  };
}
