import { AppError } from '@ctk/shared';

/**
 * The token units of a dollar amount in cents: cents x 10^(decimals - 2) (5 decimals, as MNEE's: 1,000 units a
 * cent). A stablecoin with fewer than 2 decimals cannot carry cents exactly: the configuration is refused.
 */
export function tokenUnitsOfCents(cents: bigint, decimals: number): bigint {
  if (!Number.isInteger(decimals) || decimals < 2 || decimals > 18)
    throw new AppError('internal', `The stablecoin's decimals (${decimals}) cannot carry cents exactly`);
  return cents * 10n ** BigInt(decimals - 2);
}
