import { buyButtonElement, escapeHtml } from '@ctk/shared';
import type { Item, SiteSource } from './site-source.js';
import { formatMoney } from './money.js';

/** An item's Buy button (checkout.js, decision 0018), or "Sold out"; nothing while the shop has no commerce key. */
export function buyMarkup(source: SiteSource, item: Item): string {
  if (item.soldOut) return '<p class="sold-out">Sold out</p>';
  if (!source.buy) return '';
  return buyButtonElement({ merchant: source.handle, item: item.id, commerceKey: source.buy.commerceKey, label: 'Buy now' });
}

export const priceOf = (item: Item) => escapeHtml(formatMoney(item.priceMinor, item.currency));
