import type { Org } from '@ctk/shared';
import { newestItemCurrency } from '../data/item-repository.js';
import type { OrderContext } from '../orders/order-context.js';

const EURO = ['AT', 'BE', 'BG', 'CY', 'DE', 'EE', 'ES', 'FI', 'FR', 'GR', 'HR', 'IE', 'IT', 'LT', 'LU', 'LV', 'MT', 'NL', 'PT', 'SI', 'SK'];
/** The currency of each country books has tax jurisdictions for (apps/books/src/tax/jurisdictions.ts). */
const COUNTRY_CURRENCIES: ReadonlyMap<string, string> = new Map([
  ...EURO.map((country): [string, string] => [country, 'EUR']),
  ['AU', 'AUD'],
  ['CA', 'CAD'],
  ['CZ', 'CZK'],
  ['DK', 'DKK'],
  ['GB', 'GBP'],
  ['HU', 'HUF'],
  ['NZ', 'NZD'],
  ['PL', 'PLN'],
  ['RO', 'RON'],
  ['SE', 'SEK'],
  ['US', 'USD'],
]);

/**
 * A card's currency when the request names none (decision 0017): the organisation's, that is its newest
 * item's, else its tax jurisdiction's country's, else USD (as items and orders default).
 */
export async function cardCurrency(context: Pick<OrderContext, 'prisma' | 'taxes'>, org: Org): Promise<string> {
  const itemCurrency = await newestItemCurrency(context.prisma, org.id);
  if (itemCurrency) return itemCurrency;
  const { jurisdiction } = await context.taxes.of(org);
  return COUNTRY_CURRENCIES.get(jurisdiction.slice(0, 2)) ?? 'USD';
}
