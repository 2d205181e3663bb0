import type { Org } from '@ctk/shared';
import { newestItemCurrency } from '../data/item-repository.js';
import type { PrismaClient } from '../generated/prisma/client.js';

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
export async function cardCurrency(prisma: PrismaClient, org: Org): Promise<string> {
  return (await newestItemCurrency(prisma, org.id)) ?? COUNTRY_CURRENCIES.get((org.jurisdiction ?? '').slice(0, 2)) ?? 'USD';
}
