import { validate } from '@ctk/shared';
import { z } from 'zod';
import { JURISDICTIONS } from '../tax/jurisdictions.js';
import { rateInForce, taxDate, type TaxRateInForce } from '../tax/rate-in-force.js';

const countrySchema = z.union([
  z.literal(''),
  z
    .string()
    .regex(/^[A-Za-z]{2}$/, 'use an ISO 3166-1 alpha-2 code such as "US" or "DE"')
    .transform((code) => code.toUpperCase()),
]);

/** Every jurisdiction (of one country, when given) with its rate in force on a date (today when empty), by code. */
export function listTaxJurisdictions(input: { at: string; country: string }): TaxRateInForce[] {
  const country = validate(countrySchema, input.country, 'country');
  const date = taxDate(input.at);
  return JURISDICTIONS.filter((jurisdiction) => !country || jurisdiction.country === country).map((jurisdiction) =>
    rateInForce(jurisdiction, date),
  );
}
