import { AppError } from '@ctk/shared';
import type { PriceSource } from './exchange-rate.js';

/**
 * Something priced in a currency (an item, a pay link) is refused when it is made if the price source has no
 * satoshi rate for that currency (422 naming `currency` and the currencies that have one), rather than at
 * every sale. A rate API that cannot be reached says nothing of the currency: that is not a refusal here.
 */
export async function requireRate(prices: PriceSource, currency: string): Promise<void> {
  try {
    await prices.rateFor(currency);
  } catch (error) {
    if (AppError.is(error) && error.code === 'validation_failed') throw error;
  }
}
