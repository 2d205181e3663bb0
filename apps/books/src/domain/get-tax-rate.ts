import { AppError } from '@ctk/shared';
import { findJurisdiction, rateInForce, taxDate, type TaxRateInForce } from '../tax/rate-in-force.js';

/** One jurisdiction's rate in force on a date (today when empty); an unknown code is not_found. */
export function getTaxRate(input: { jurisdiction: string; at: string }): TaxRateInForce {
  const date = taxDate(input.at);
  const jurisdiction = findJurisdiction(input.jurisdiction);
  if (!jurisdiction) {
    throw new AppError(
      'not_found',
      `No tax jurisdiction "${input.jurisdiction}": use an ISO 3166 code such as "US-CA", "DE", "GB" or "CA-ON" from the list of jurisdictions (GET /api/v1/tax/jurisdictions).`,
      { field: 'jurisdiction' },
    );
  }
  return rateInForce(jurisdiction, date);
}
