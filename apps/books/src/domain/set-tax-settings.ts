import type { SetTaxSettingsRequest, TaxSettings } from '@ctk/proto/ctk/books/v1/books';
import { invalidInput, orgOf } from '@ctk/shared';
import type { TaxChoice, TaxSettingsRepository } from '../data/tax-settings-repository.js';
import { findJurisdiction, taxDate } from '../tax/rate-in-force.js';
import { unknownCodeMessage } from './get-tax-rate.js';
import { taxSettingsOf } from './get-tax-settings.js';

/**
 * Chooses an organisation's jurisdiction and whether its prices include tax. A code not in the tax table is
 * validation_failed on `jurisdiction`, saying what a code looks like and where the list is, and nothing is
 * stored. With `validate_only` nothing is stored either way, so the gateway can have every owner check its
 * part of a change before any owner writes. Setting the same values again is the same write.
 */
export async function setTaxSettings(repository: TaxSettingsRepository, request: SetTaxSettingsRequest): Promise<TaxSettings> {
  const org = orgOf(request.org);
  if (request.jurisdiction !== undefined && !findJurisdiction(request.jurisdiction))
    throw invalidInput([{ field: 'jurisdiction', message: unknownCodeMessage(request.jurisdiction) }]);
  if (request.clearPricesIncludeTax && request.pricesIncludeTax !== undefined)
    throw invalidInput([{ field: 'prices_include_tax', message: 'either a choice or clear_prices_include_tax, not both' }]);
  const change: Partial<TaxChoice> = {
    jurisdiction: request.jurisdiction,
    pricesIncludeTax: request.clearPricesIncludeTax ? null : request.pricesIncludeTax,
  };
  const today = taxDate('');
  if (request.validateOnly) return taxSettingsOf(org.id, { ...(await repository.find(org.id)), ...definedOnly(change) }, today);
  return taxSettingsOf(org.id, await repository.save(org.id, change), today);
}

function definedOnly<T extends object>(fields: T): Partial<T> {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as Partial<T>;
}
