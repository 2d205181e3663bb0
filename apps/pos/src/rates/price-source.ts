import type { Config } from '../config.js';
import type { PriceSource } from './exchange-rate.js';
import { fixedRates } from './fixed-rates.js';
import { httpRates } from './http-rates.js';

/** The price source POS_PRICE_SOURCE names. */
export function priceSource(config: Config): PriceSource {
  if (config.POS_PRICE_SOURCE === 'fixed') return fixedRates(config.POS_FIXED_RATES);
  return httpRates({
    url: config.POS_PRICE_URL,
    cacheSeconds: config.POS_PRICE_CACHE_SECONDS,
    maxAgeSeconds: config.POS_PRICE_MAX_AGE_SECONDS,
  });
}
