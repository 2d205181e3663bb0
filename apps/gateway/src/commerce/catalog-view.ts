import type { Catalog, CatalogItem } from '@ctk/proto/ctk/commerce/v1/commerce';
import { AppError } from '@ctk/shared';
import type { z } from 'zod';
import { minorUnitsOf } from '../routes/answer-schema.js';
import type { catalog, catalogItem } from './commerce-answers.js';

type CatalogItemAnswer = z.output<typeof catalogItem>;

/** A catalog item as commerce answers it, in the API's words: an empty category or group is null. */
export function catalogItemView(item: CatalogItem | undefined): CatalogItemAnswer {
  if (!item) throw new AppError('internal', 'commerce answered without the item');
  return {
    id: item.id,
    name: item.name,
    description: item.description,
    price_minor: minorUnitsOf(item.priceMinor),
    currency: item.currency,
    category: item.category || null,
    price_type: item.priceType as CatalogItemAnswer['price_type'],
    sold_out: item.soldOut,
    modifiers: item.modifiers.map((modifier) => ({
      id: modifier.id,
      name: modifier.name,
      price_minor: minorUnitsOf(modifier.priceMinor),
      group: modifier.group || null,
    })),
  };
}

export function catalogView(answer: Catalog | undefined): z.output<typeof catalog> {
  return {
    sections: (answer?.sections ?? []).map((section) => ({ name: section.name, item_ids: section.itemIds })),
    items: (answer?.items ?? []).map(catalogItemView),
  };
}
