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

/** The same rule asked by another service (commerce's ticket catalog): a code of three capitals, then a rate for it. */
export async function checkCurrencyRate(prices: PriceSource, currency: string): Promise<void> {
  if (!/^[A-Z]{3}$/.test(currency))
    throw new AppError('validation_failed', 'currency must be an ISO 4217 code such as "USD"', { field: 'currency' });
  await requireRate(prices, currency);
}
