import type { Item as ItemMessage } from '@ctk/proto/ctk/pos/v1/pos';
import type { Item } from '../data/item-repository.js';

export function toItemMessage(item: Item): ItemMessage {
  return {
    id: item.id,
    name: item.name,
    description: item.description,
    priceCents: item.priceCents,
    currency: item.currency,
    category: item.category ?? '',
    available: item.available,
    sku: item.sku ?? '',
    createdAt: item.createdAt.toISOString(),
    // Until items carry them (decision 0015): every item is fixed-price, standard-rated, untracked.
    taxTreatment: 'standard',
    taxRate: '',
    priceType: 'fixed',
    modifiers: [],
  };
}
