import type { Item as ItemMessage } from '@ctk/proto/ctk/pos/v1/pos';
import type { Item } from '../data/item-repository.js';

export function toItemMessage(item: Item): ItemMessage {
  return {
    id: item.id,
    name: item.name,
    description: item.description,
    priceCents: item.priceCents,
    currency: item.currency,
    category: item.category ?? undefined,
    available: item.available,
    sku: item.sku ?? undefined,
    createdAt: item.createdAt.toISOString(),
    taxTreatment: item.taxTreatment,
    taxRate: item.taxRate ?? undefined,
    priceType: item.priceType,
    // Absent, not 0, when stock is not tracked.
    ...(item.inventory === null ? {} : { inventory: item.inventory }),
    modifiers: item.modifiers.map((modifier) => ({
      id: modifier.id,
      name: modifier.name,
      priceCents: modifier.priceCents,
      group: modifier.group ?? undefined,
    })),
  };
}
