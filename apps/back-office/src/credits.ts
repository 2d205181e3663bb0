import { Refusal } from './form.js';
import { formatMoney } from './format.js';
import { amountText, type Token, type Units } from './tokens.js';

/**
 * Credits (decision 0036, "Credits in the books"): a credits token's face value, fixed at mint as
 * `unit_value_minor` (what one unit, amt 1, is worth in minor units of `currency`), and what the Tokens page
 * reads of the pos orders that sell them and that they pay.
 */

/** The parts of a pos order the Tokens page shows: a sale's, an order credits pay (`GET /api/pos/orders/:number`). */
export type PosOrder = {
  order_number: string;
  status: 'open' | 'paid' | 'confirmed' | 'expired' | 'cancelled' | 'paid_elsewhere';
  currency: string;
  total_minor: number;
  card_paid_minor: number;
  exchange_rate: string;
  paid_satoshis: number;
  due_satoshis: number;
  payment_request_url: string;
  bip21_uri: string;
  merchant_handle: string;
  credits_token_id?: string | null;
  prepaid_card_id?: string | null;
  expires_at: string;
};

/** Credits sold: the order for their face value (`POST .../tokens/:token_id/sales`). */
export type CreditsSale = {
  token_id: string;
  symbol: string;
  units: Units;
  value_minor: number;
  currency: string;
  order: PosOrder;
  next_steps: string[];
};

/** Where the customer transfers the credits they spend on one order (`POST .../redemption-addresses`). */
export type RedemptionAddress = { token_id: string; order_number: string; address: string; expires_at: string };

/** Credits redeemed against an order, what they paid, and the order after (`POST .../redemptions`). */
export type TokenRedemption = {
  id: string;
  token_id: string;
  order_number: string;
  address: string;
  txid: string;
  vout: number;
  amount: Units;
  redeemed_at: string;
  value_minor: number;
  currency: string;
  order?: PosOrder;
};

/**
 * What the token routes answer: the object itself, as the gateway answers an RPC's `answer` field (a mint
 * answers its Token); read also as the response message that wraps it (`{"sale": {...}}`), as the contract names it.
 */
export type Answer<K extends string, T> = T & { [key in K]?: T };

/** A credits token with its face value: the only kind sold and redeemed here. */
export type ValuedCredits = Token & { token_id: string; unit_value_minor: number; currency: string };

export function isValuedCredits(token: Token): token is ValuedCredits {
  return token.kind === 'credits' && Boolean(token.token_id) && typeof token.unit_value_minor === 'number' && Boolean(token.currency);
}

/** The most one unit may be worth (the contracts service's bound), in minor units. */
const MAX_UNIT_VALUE_MINOR = 100_000_000n;

/** Digits after the point in a currency (2 for USD, 0 for JPY), as formatMoney places them; null for no currency code. */
export function currencyDigits(currency: string): number | null {
  if (!/^[A-Z]{3}$/.test(currency)) return null;
  try {
    return new Intl.NumberFormat('en-US', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    return null;
  }
}

/** What `units` of the credits are worth, in minor units of their currency. */
export function creditsValueMinor(token: ValuedCredits, units: Units): bigint {
  return BigInt(String(units)) * BigInt(token.unit_value_minor);
}

/** "1 BEAN = $1.00", and for a token with decimals what its smallest amount is worth; null without a face value. */
export function faceValueText(token: Pick<Token, 'symbol' | 'decimals' | 'unit_value_minor' | 'currency'>): string | null {
  if (typeof token.unit_value_minor !== 'number' || !token.currency) return null;
  const whole = BigInt(token.unit_value_minor) * 10n ** BigInt(token.decimals);
  const one = `1 ${token.symbol} = ${formatMoney(whole, token.currency)}`;
  if (token.decimals === 0) return one;
  return `${one} (${amountText(1, token.decimals, token.symbol)} = ${formatMoney(token.unit_value_minor, token.currency)})`;
}

/**
 * The face value the merchant types for one whole token ("1.00" US dollars) as `unit_value_minor`, the minor
 * units one unit on the chain is worth, by the digits: with 2 decimals, one whole token is 100 units, so $1.00
 * makes each unit worth 1 cent. A value that does not give each unit a whole number of minor units is refused
 * in words, saying which values do.
 */
export function unitValueOfFaceValue(text: string, decimals: number, currency: string, symbol: string): number {
  const name = symbol || 'credit';
  const digits = currencyDigits(currency);
  if (digits === null) throw new Refusal('Choose the currency first: its three-letter code, such as USD or EUR.');
  const example = digits > 0 ? `1.${'0'.repeat(digits)}` : '100';
  const typed = text.trim().replace(/(?<=\d)[,_\s](?=\d)/g, '');
  if (!typed) throw new Refusal(`Say what one ${name} is worth, such as ${example}.`);
  const match = /^(\d{1,20})(?:\.(\d+))?$/.exec(typed);
  if (!match) throw new Refusal(`"${text.trim()}" is not an amount of money: write it in digits, such as ${example}.`);
  const fraction = match[2] ?? '';
  if (fraction.length > digits)
    throw new Refusal(
      digits === 0
        ? `${currency} amounts are whole: write it without a point, such as ${example}.`
        : `${currency} amounts have at most ${digits} digits after the point, such as ${example}.`,
    );
  const wholeMinor = BigInt(match[1]! + fraction.padEnd(digits, '0'));
  if (wholeMinor === 0n) throw new Refusal(`One ${name} must be worth something, such as ${example}.`);
  const perWhole = 10n ** BigInt(decimals);
  if (wholeMinor % perWhole !== 0n)
    throw new Refusal(
      `With ${decimals} decimals, ${amountText(1, decimals, name)} must be worth a whole number of ${formatMoney(1, currency)}: ` +
        `make one ${name} worth a multiple of ${formatMoney(perWhole, currency)}, or choose fewer decimals.`,
    );
  const unit = wholeMinor / perWhole;
  if (unit > MAX_UNIT_VALUE_MINOR)
    throw new Refusal(`One ${name} can be worth at most ${formatMoney(MAX_UNIT_VALUE_MINOR * perWhole, currency)}.`);
  return Number(unit);
}

/**
 * What an order still needs in minor units, as pos counts it before credits pay part of it: its total less what
 * stored value paid, less what its satoshis paid are worth at its rate (satoshis per minor unit), rounded down.
 */
export function dueMinorOf(order: PosOrder): bigint {
  const rest = BigInt(order.total_minor) - BigInt(order.card_paid_minor);
  const [whole, fraction = ''] = order.exchange_rate.split('.');
  const numerator = BigInt(`${whole || '0'}${fraction}`);
  const denominator = 10n ** BigInt(fraction.length);
  const paid = numerator === 0n ? 0n : (BigInt(order.paid_satoshis) * denominator) / numerator;
  return rest > paid ? rest - paid : 0n;
}

/** The most whole units of the credits that `minor` pays for: what a customer may spend on what an order owes. */
export function unitsWorth(token: ValuedCredits, minor: bigint): bigint {
  return minor / BigInt(token.unit_value_minor);
}

/**
 * An order number as staff type it from a screen or a receipt: spaces and dashes dropped, upper case, and I, L
 * and O read as 1, 1 and 0 (Crockford base32, which pos numbers orders in); null when it is not ten of them.
 */
export function orderNumberOf(text: string): string | null {
  const typed = text.replace(/[\s-]/g, '').toUpperCase().replace(/[IL]/g, '1').replace(/O/g, '0');
  return /^[0-9A-HJKMNP-TV-Z]{10}$/.test(typed) ? typed : null;
}

/** What a customer's wallet address looks like (base58, P2PKH): checked before it goes into a command. */
export const ADDRESS = /^[1-9A-HJ-NP-Za-km-z]{25,35}$/;

/** Units as the API takes them: a JSON number while exact, else its digits. */
export function unitsJson(units: string): number | string {
  return BigInt(units) <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(units) : units;
}
