import { AppError } from '@ctk/shared';
import { parseDecimal, type PriceSource } from './exchange-rate.js';

/** POS_FIXED_RATES ("USD=20000,EUR=18500") as a price source: the same rates always, timed now. */
export function fixedRates(spec: string): PriceSource {
  const rates = new Map<string, string>();
  for (const pair of spec
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)) {
    const [currency = '', rate = ''] = pair.split('=').map((part) => part.trim());
    if (!/^[A-Z]{3}$/.test(currency)) throw new Error(`POS_FIXED_RATES: "${pair}" does not start with an ISO 4217 code such as USD=`);
    const { numerator } = parseDecimal(rate, 'POS_FIXED_RATES');
    if (numerator === 0n) throw new Error(`POS_FIXED_RATES: the rate of ${currency} must be more than 0`);
    rates.set(currency, rate);
  }
  return {
    async rateFor(currency) {
      const rate = rates.get(currency);
      if (!rate) {
        throw new AppError(
          'validation_failed',
          `There is no satoshi rate for ${currency}: POS_FIXED_RATES names ${[...rates.keys()].join(', ')}`,
          {
            field: 'currency',
          },
        );
      }
      return { rate, source: 'fixed', at: new Date() };
    },
  };
}
