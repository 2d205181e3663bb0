import { invalidInput } from '@ctk/shared';

// ISO 4217 minor units where they are not 2. A fixed table rather than Intl: the price string is signed, so
// every instance must spell it the same whatever ICU data its Node carries (CLDR differs from ISO, e.g. IQD).
const ZERO = ['BIF', 'CLP', 'DJF', 'GNF', 'ISK', 'JPY', 'KMF', 'KRW', 'PYG', 'RWF', 'UGX', 'UYI', 'VND', 'VUV', 'XAF', 'XOF', 'XPF'];
const THREE = ['BHD', 'IQD', 'JOD', 'KWD', 'LYD', 'OMR', 'TND'];
const FOUR = ['CLF', 'UYW'];
const DIGITS = new Map<string, number>([
  ...ZERO.map((c) => [c, 0] as const),
  ...THREE.map((c) => [c, 3] as const),
  ...FOUR.map((c) => [c, 4] as const),
]);

/** How many minor-unit digits a currency has per ISO 4217 (JPY 0, USD 2, KWD 3); 2 for any code not listed otherwise. */
export function minorDigits(currency: string): number {
  return DIGITS.get(currency) ?? 2;
}

/**
 * The decimal price string of an amount in minor units, exactly (integer and string arithmetic, no floats):
 * 450 USD is "4.50", 5 USD "0.05", 1200 JPY "1200", 1234 KWD "1.234". `validation_failed` for a non-integer or negative amount.
 */
export function formatPrice(minor: number, currency: string): string {
  if (!Number.isSafeInteger(minor) || minor < 0) {
    throw invalidInput([{ field: 'priceMinor', message: 'must be a non-negative integer number of minor units' }], 'feed');
  }
  const digits = minorDigits(currency);
  if (digits === 0) return String(minor);
  const padded = String(minor).padStart(digits + 1, '0');
  return `${padded.slice(0, -digits)}.${padded.slice(-digits)}`;
}
