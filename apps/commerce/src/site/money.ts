/** Digits after the decimal point of a currency (USD 2, JPY 0), by ISO 4217 as Intl knows it; 2 when unknown. */
export function currencyExponent(currency: string): number {
  try {
    return new Intl.NumberFormat('en-US', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    return 2;
  }
}

/** Minor units as an exact decimal string ("5.75"), from the integer's digits: no float on the way. */
export function decimalAmount(minor: bigint, currency: string): string {
  const digits = currencyExponent(currency);
  const negative = minor < 0n;
  const text = (negative ? -minor : minor).toString().padStart(digits + 1, '0');
  const amount = digits ? `${text.slice(0, -digits)}.${text.slice(-digits)}` : text;
  return negative ? `-${amount}` : amount;
}

/** Minor units as a reader sees them ("$5.75"), Intl given the exact decimal string. */
export function formatMoney(minor: bigint, currency: string): string {
  const amount = decimalAmount(minor, currency);
  try {
    return new Intl.NumberFormat('en-US', { style: 'currency', currency }).format(amount as unknown as number);
  } catch {
    return `${amount} ${currency}`;
  }
}
