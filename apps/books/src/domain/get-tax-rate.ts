import { AppError } from '@ctk/shared';
import { JURISDICTIONS } from '../tax/jurisdictions.js';
import { findJurisdiction, rateInForce, taxDate, type TaxRateInForce } from '../tax/rate-in-force.js';

/** One jurisdiction's rate in force on a date (today when empty); an unknown code is not_found. */
export function getTaxRate(input: { jurisdiction: string; at: string }): TaxRateInForce {
  const date = taxDate(input.at);
  const jurisdiction = findJurisdiction(input.jurisdiction);
  if (!jurisdiction) throw new AppError('not_found', unknownCodeMessage(input.jurisdiction), { field: 'jurisdiction' });
  return rateInForce(jurisdiction, date);
}

/** Names the code format and where the list is; a country taxed by state or province gets an example of its own. */
export function unknownCodeMessage(code: string): string {
  const subdivision = JURISDICTIONS.find((j) => j.country === code && j.code !== code);
  if (subdivision) {
    return `"${code}" is taxed by state or province: use a code such as "${subdivision.code}"; GET /api/v1/tax/jurisdictions?country=${code} lists them.`;
  }
  return `"${code}" is not a tax jurisdiction of this service: use an ISO 3166 code such as "US-CA", "DE", "GB" or "CA-ON"; GET /api/v1/tax/jurisdictions lists them (?country=US for one country).`;
}
