import { AppError } from '@ctk/shared';

/** Satoshis per minor unit of a currency: an exact decimal string, where it came from and when it was true. */
export type ExchangeRate = { rate: string; source: string; at: Date };

/** Where an order's rate comes from (POS_PRICE_SOURCE). */
export type PriceSource = { rateFor(currency: string): Promise<ExchangeRate> };

/** Satoshis of a BSV price: 1 BSV is 10^8 satoshis. */
const SATOSHIS_PER_BSV = 100_000_000n;
/** Decimals a computed rate keeps: a satoshi in a billion minor units, well below any rounding that matters. */
const RATE_DECIMALS = 8;

const DECIMAL = /^\d{1,20}(?:\.\d{1,20})?$/;

/** An exact decimal string ("20000", "19.53125") as a fraction. */
export function parseDecimal(text: string, field: string): { numerator: bigint; denominator: bigint } {
  if (!DECIMAL.test(text))
    throw new AppError('validation_failed', `${field} must be a decimal number such as "19.5", not "${text}"`, { field });
  const [whole = '0', fraction = ''] = text.split('.');
  return { numerator: BigInt(whole + fraction), denominator: 10n ** BigInt(fraction.length) };
}

/** What an amount in minor units costs in satoshis at the rate: rounded up, so the merchant is never short. */
export function satoshisFor(amountMinor: bigint, rate: string): bigint {
  const { numerator, denominator } = parseDecimal(rate, 'exchange_rate');
  return (amountMinor * numerator + denominator - 1n) / denominator;
}

/** The digits after the decimal point of a currency's minor unit (USD 2, JPY 0), from the runtime's ISO 4217 data. */
export function minorDigits(currency: string): number {
  return new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
}

/**
 * The rate in satoshis per minor unit of a BSV price in a currency's major units ("51.23" USD per BSV):
 * 10^8 / (price x 10^digits), rounded half up to RATE_DECIMALS decimals, trailing zeros dropped.
 */
export function rateFromPrice(price: string, currency: string): string {
  const { numerator, denominator } = parseDecimal(price, 'price');
  if (numerator === 0n) throw new AppError('unavailable', `The price source answered a price of 0 for ${currency}`);
  const scale = 10n ** BigInt(RATE_DECIMALS);
  const top = SATOSHIS_PER_BSV * denominator * scale;
  const bottom = numerator * 10n ** BigInt(minorDigits(currency));
  const scaled = (2n * top + bottom) / (2n * bottom);
  return formatScaled(scaled, RATE_DECIMALS);
}

function formatScaled(value: bigint, decimals: number): string {
  const digits = value.toString().padStart(decimals + 1, '0');
  const whole = digits.slice(0, -decimals);
  const fraction = digits.slice(-decimals).replace(/0+$/, '');
  return fraction ? `${whole}.${fraction}` : whole;
}
