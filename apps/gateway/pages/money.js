// Money on the pages: integers of minor units, as the API gives them. Display goes through
// Intl.NumberFormat with a decimal string built from the integer, so no amount is ever a float;
// what the clerk types is read digit by digit into an integer.

const formats = new Map();

/** Intl.NumberFormat for a currency, cached. */
function currencyFormat(currency) {
  const code = /^[A-Z]{3}$/.test(currency) ? currency : 'USD';
  if (!formats.has(code)) formats.set(code, new Intl.NumberFormat(undefined, { style: 'currency', currency: code }));
  return formats.get(code);
}

/** How many decimals the currency has (2 for USD, 0 for JPY). */
export function minorDigits(currency) {
  return currencyFormat(currency).resolvedOptions().maximumFractionDigits ?? 2;
}

/** The decimal string of an integer amount of minor units: 1234, 2 -> "12.34". */
export function minorToDecimal(minor, digits) {
  const value = BigInt(minor);
  const negative = value < 0n;
  const digitsText = (negative ? -value : value).toString().padStart(digits + 1, '0');
  const whole = digitsText.slice(0, digitsText.length - digits);
  const fraction = digits > 0 ? `.${digitsText.slice(-digits)}` : '';
  return `${negative ? '-' : ''}${whole}${fraction}`;
}

/** 1234 USD -> "$12.34" in the browser's locale. */
export function formatMoney(minor, currency) {
  // Intl formats a decimal string exactly (ECMA-402 v3); the number is never converted to a float.
  return currencyFormat(currency).format(minorToDecimal(minor, minorDigits(currency)));
}

/**
 * A typed amount ("4.5", "4,50", "12") to minor units, or null when it is not an amount with at most
 * `digits` decimals. Read as text: "0.1 + 0.2" never happens.
 */
export function parseDecimal(text, digits) {
  const match = /^\s*(\d{1,12})(?:[.,](\d*))?\s*$/.exec(String(text));
  if (!match) return null;
  const fraction = match[2] ?? '';
  if (fraction.length > digits) return null;
  return Number(BigInt(match[1]) * 10n ** BigInt(digits) + BigInt(fraction.padEnd(digits, '0') || '0'));
}

/** A typed amount of money in minor units of the currency, or null. */
export function parseMoney(text, currency) {
  return parseDecimal(text, minorDigits(currency));
}

/** "12.5" (percent) -> 1250 basis points, at most 100%; null otherwise. */
export function parsePercent(text) {
  const basisPoints = parseDecimal(text, 2);
  return basisPoints !== null && basisPoints <= 10_000 ? basisPoints : null;
}

/** Basis points as a percent for display: 1250 -> "12.5%". */
export function formatPercent(basisPoints) {
  return `${minorToDecimal(basisPoints, 2).replace(/\.?0+$/, '')}%`;
}

/** Satoshis with grouping: 123456 -> "123,456 sat". */
export function formatSatoshis(satoshis) {
  return `${new Intl.NumberFormat().format(BigInt(satoshis))} sat`;
}
