/**
 * Decimal places of each currency's minor unit (ISO 4217), and BSV counted in satoshis. A currency not
 * listed has two.
 */
const EXPONENTS: Readonly<Record<string, number>> = {
  BSV: 8,
  ...Object.fromEntries(
    ['BIF', 'CLP', 'DJF', 'GNF', 'ISK', 'JPY', 'KMF', 'KRW', 'PYG', 'RWF', 'UGX', 'UYI', 'VND', 'VUV', 'XAF', 'XOF', 'XPF'].map((code) => [
      code,
      0,
    ]),
  ),
  ...Object.fromEntries(['BHD', 'IQD', 'JOD', 'KWD', 'LYD', 'OMR', 'TND'].map((code) => [code, 3])),
};

export function exponentOf(currency: string): number {
  return EXPONENTS[currency] ?? 2;
}

/**
 * Minor units as a decimal string in the currency's major unit, by integer arithmetic only (a float
 * would round): 1234 USD -> "12.34", 5 BSV -> "0.00000005", -7 USD -> "-0.07", 1075 JPY -> "1075".
 */
export function formatMinor(minor: bigint, currency: string): string {
  const exponent = exponentOf(currency);
  const sign = minor < 0n ? '-' : '';
  const digits = (minor < 0n ? -minor : minor).toString().padStart(exponent + 1, '0');
  if (exponent === 0) return sign + digits;
  return `${sign}${digits.slice(0, -exponent)}.${digits.slice(-exponent)}`;
}
