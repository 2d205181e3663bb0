import { AppError, calendarDate } from '@ctk/shared';
import { JURISDICTIONS, TABLE_STARTS, type Jurisdiction, type TaxKind } from './jurisdictions.js';

/** A jurisdiction with the rate in force on one date. */
export type TaxRateInForce = {
  code: string;
  name: string;
  country: string;
  kind: TaxKind;
  rate: string;
  effectiveFrom: string;
  pricesIncludeTax: boolean;
};

const BY_CODE = new Map(JURISDICTIONS.map((jurisdiction) => [jurisdiction.code, jurisdiction]));
const dateSchema = calendarDate('at');

export function findJurisdiction(code: string): Jurisdiction | undefined {
  return BY_CODE.get(code);
}

/** The date a rate is asked for: YYYY-MM-DD from TABLE_STARTS on, or today (UTC) when empty. */
export function taxDate(at: string): string {
  if (!at) return new Date().toISOString().slice(0, 10);
  if (!dateSchema.safeParse(at).success)
    throw new AppError('validation_failed', `"at" must be a date YYYY-MM-DD, not "${at}"`, { field: 'at' });
  if (at < TABLE_STARTS)
    throw new AppError('validation_failed', `Tax rates are recorded from ${TABLE_STARTS}; "at" is earlier`, { field: 'at' });
  return at;
}

/** The jurisdiction's latest rate that took effect on or before the date (YYYY-MM-DD strings compare in order). */
export function rateInForce(jurisdiction: Jurisdiction, date: string): TaxRateInForce {
  const change = jurisdiction.rates.findLast((entry) => entry.effectiveFrom <= date) ?? jurisdiction.rates[0];
  if (!change) throw new Error(`The tax table has no rate for ${jurisdiction.code}`);
  const { code, name, country, kind, pricesIncludeTax } = jurisdiction;
  return { code, name, country, kind, rate: change.rate, effectiveFrom: change.effectiveFrom, pricesIncludeTax };
}
