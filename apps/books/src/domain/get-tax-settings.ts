import type { TaxSettings } from '@ctk/proto/ctk/books/v1/books';
import { AppError } from '@ctk/shared';
import type { TaxChoice, TaxSettingsRepository } from '../data/tax-settings-repository.js';
import { findJurisdiction, rateInForce, taxDate } from '../tax/rate-in-force.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** A page of organisations (the gateway lists at most 100) in one read. */
const MAX_IDS = 100;

/**
 * Organisations' tax settings, one per id in order, each with its jurisdiction's rate in force on `at`
 * (today when empty): what an order is taxed with, in the one call pos makes for it.
 */
export async function getTaxSettings(
  repository: TaxSettingsRepository,
  input: { organizationIds: string[]; at: string },
): Promise<TaxSettings[]> {
  const ids = input.organizationIds;
  if (ids.length > MAX_IDS)
    throw new AppError('validation_failed', `At most ${MAX_IDS} organisations at once`, { field: 'organization_ids' });
  if (ids.some((id) => !UUID.test(id)))
    throw new AppError('bad_request', 'Organisations are named by their UUID', { field: 'organization_ids' });
  const date = taxDate(input.at);
  const choices = await repository.findMany(ids);
  return ids.map((id, index) => taxSettingsOf(id, choices[index]!, date));
}

/** The settings of one organisation: its choice, else its jurisdiction's default as the table says today. */
export function taxSettingsOf(organizationId: string, choice: TaxChoice, date: string): TaxSettings {
  const jurisdiction = choice.jurisdiction === null ? undefined : findJurisdiction(choice.jurisdiction);
  const rate = jurisdiction && rateInForce(jurisdiction, date);
  return {
    organizationId,
    jurisdiction: choice.jurisdiction ?? '',
    pricesIncludeTax: choice.pricesIncludeTax ?? rate?.pricesIncludeTax ?? false,
    rate,
  };
}
