import { MAX_PRICE_CENTS } from '../domain/create-item.js';
import { quoted } from './drafts.js';

/** The ISO 4217 codes this runtime knows (ICU's list): a code in a price or a request must be one of them. */
const KNOWN_CURRENCIES = new Set(Intl.supportedValuesOf('currency'));

export function isKnownCurrency(code: string): boolean {
  return KNOWN_CURRENCIES.has(code);
}

/** Digits after the decimal point of a currency's minor unit (USD 2, JPY 0, KWD 3), from the runtime's CLDR data. */
export function minorDigits(currency: string): number {
  return new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
}

// Symbols people write before or after an amount. A bare "$" or "¥" stands for the caller's currency when
// that currency writes it so (a Canadian cafe's "$4.50" is CAD), else for the currency named here.
const SYMBOLS: Record<string, { currency: string; alsoFor: string[] }> = {
  $: { currency: 'USD', alsoFor: ['AUD', 'CAD', 'NZD', 'SGD', 'HKD', 'MXN', 'TWD'] },
  US$: { currency: 'USD', alsoFor: [] },
  A$: { currency: 'AUD', alsoFor: [] },
  C$: { currency: 'CAD', alsoFor: [] },
  NZ$: { currency: 'NZD', alsoFor: [] },
  HK$: { currency: 'HKD', alsoFor: [] },
  S$: { currency: 'SGD', alsoFor: [] },
  R$: { currency: 'BRL', alsoFor: [] },
  '€': { currency: 'EUR', alsoFor: [] },
  '£': { currency: 'GBP', alsoFor: [] },
  '¥': { currency: 'JPY', alsoFor: ['CNY'] },
  '₹': { currency: 'INR', alsoFor: [] },
  '₩': { currency: 'KRW', alsoFor: [] },
  '₺': { currency: 'TRY', alsoFor: [] },
  '₪': { currency: 'ILS', alsoFor: [] },
  '₫': { currency: 'VND', alsoFor: [] },
  '₱': { currency: 'PHP', alsoFor: [] },
  '฿': { currency: 'THB', alsoFor: [] },
};

const SYMBOL = '(?:US\\$|NZ\\$|HK\\$|A\\$|C\\$|S\\$|R\\$|[$€£¥₹₩₺₪₫₱฿])';
const CODE = '[A-Z]{3}';
// Digits with the separators people group and split them with (no plain space: "Pack of 6 12.00" is not 612).
const NUMBER = "\\d(?:[\\d.,'\\u00a0\\u202f]*\\d)?";
const PRICE = `(?<sign>\\+)?(?:(?<before>${SYMBOL}|${CODE})\\s?)?(?<number>${NUMBER})(?:\\s?(?<after>${SYMBOL}|${CODE}))?`;

/** A whole cell or token that is a price, and nothing else. */
const WHOLE_PRICE = new RegExp(`^${PRICE}$`, 'u');
/** A price ending a line, after a space or a leader ("....", " - ", ":"). */
export const PRICE_AT_END = new RegExp(`(?:^|[\\s.…·_:\\-–—]+)${PRICE}$`, 'u');

export type Price = { priceCents: bigint; currency: string; notes: string[] };
export type PriceResult = { price: Price } | { problem: string };

/** Reads a price written in `text` (the whole of it); `currency` is the one to assume when it names none. */
export function parsePrice(text: string, currency: string): PriceResult {
  const match = WHOLE_PRICE.exec(text.trim());
  if (!match?.groups) return { problem: `${quoted(text.trim())} is not a price` };
  return readPrice(match.groups, currency, text.trim());
}

/** Reads the named groups of a {@link PRICE_AT_END} or {@link WHOLE_PRICE} match; `written` is the price as it stood. */
export function readPrice(groups: Record<string, string | undefined>, assumed: string, written: string): PriceResult {
  const notes: string[] = [];
  if (groups.before && groups.after) return { problem: `${quoted(written)} names its currency twice` };
  const marker = groups.before ?? groups.after;
  let currency = assumed;
  if (marker === undefined) {
    notes.push(`currency assumed ${assumed}`);
  } else if (SYMBOLS[marker]) {
    const symbol = SYMBOLS[marker];
    currency = symbol.alsoFor.includes(assumed) ? assumed : symbol.currency;
    if (currency !== assumed) notes.push(`${quoted(marker)} read as ${currency}`);
  } else if (isKnownCurrency(marker)) {
    currency = marker;
  } else {
    return { problem: `${quoted(marker)} in ${quoted(written)} is not a currency code` };
  }
  const amount = readAmount(groups.number ?? '', minorDigits(currency), currency);
  if ('problem' in amount) return { problem: `${quoted(written)}: ${amount.problem}` };
  if (amount.note) notes.push(`price read as ${amount.shown} from ${quoted(written)} (${amount.note})`);
  if (groups.sign) notes.push(`${quoted(written)} looks like an add-on to another item`);
  return { price: { priceCents: amount.minor, currency, notes } };
}

type Amount = { minor: bigint; shown: string; note?: string } | { problem: string };

/**
 * An amount's exact minor units. The decimal separator is the last "." or "," when both appear; a lone
 * separator followed by exactly three digits groups thousands ("1,234"), unless the currency has three
 * decimals; any other lone separator is the decimal one ("4,50" is 4.50).
 */
function readAmount(number: string, digits: number, currency: string): Amount {
  const plain = number.replace(/[\u00a0\u202f']/g, (c) => (c === "'" ? ',' : ''));
  const lastDot = plain.lastIndexOf('.');
  const lastComma = plain.lastIndexOf(',');
  let decimal: '.' | ',' | null = null;
  if (lastDot >= 0 && lastComma >= 0) decimal = lastDot > lastComma ? '.' : ',';
  else if (lastDot >= 0 || lastComma >= 0) {
    const separator = lastDot >= 0 ? '.' : ',';
    const parts = plain.split(separator);
    const groupsThousands = parts.length > 2 || (parts[1]?.length === 3 && digits !== 3 && !/^0+$/.test(parts[0] ?? ''));
    decimal = groupsThousands ? null : separator;
  }
  const [whole = '', fraction = ''] = decimal ? splitLast(plain, decimal) : [plain, ''];
  const grouping = decimal ? (decimal === '.' ? ',' : '.') : plain.includes(',') ? ',' : '.';
  if (decimal && whole.includes(decimal)) return { problem: `${quoted(number)} has more than one decimal separator` };
  const wholeDigits = whole.split(grouping);
  if (!wholeDigits.every((group) => /^\d+$/.test(group)) || !/^\d*$/.test(fraction)) {
    return { problem: `${quoted(number)} mixes its separators` };
  }
  if (wholeDigits.length > 1 && ((wholeDigits[0]?.length ?? 0) > 3 || wholeDigits.slice(1).some((group) => group.length !== 3))) {
    return { problem: `${quoted(number)} groups its digits irregularly` };
  }
  const significant = fraction.replace(/0+$/, '');
  if (significant.length > digits) {
    return {
      problem: `${currency} has ${digits === 0 ? 'no minor unit' : `${digits} decimal places`}, ${quoted(number)} has ${fraction.length}`,
    };
  }
  const minor = BigInt(wholeDigits.join('')) * 10n ** BigInt(digits) + BigInt(significant.padEnd(digits, '0') || '0');
  if (minor > MAX_PRICE_CENTS) return { problem: `more than the largest price an item may have` };
  const shown =
    digits === 0 ? `${minor}` : `${minor / 10n ** BigInt(digits)}.${(minor % 10n ** BigInt(digits)).toString().padStart(digits, '0')}`;
  if (decimal === ',') return { minor, shown, note: 'a decimal comma' };
  if (!decimal && wholeDigits.length > 1) return { minor, shown, note: `${quoted(grouping)} read as a thousands separator` };
  return { minor, shown };
}

function splitLast(text: string, separator: string): [string, string] {
  const at = text.lastIndexOf(separator);
  return [text.slice(0, at), text.slice(at + 1)];
}
