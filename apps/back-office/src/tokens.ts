import { Refusal } from './form.js';

/**
 * Whole token units as the API answers them: a JSON number up to 2^53, its digits as a string past that
 * (a supply of 2^63 - 1 is exact only as text). Always read with `String()`, never with arithmetic.
 */
export type Units = number | string;

export type TokenKind = 'membership' | 'credits' | 'community';

/** A shop's token as `GET /api/v1/orgs/:handle/tokens` and the mint routes answer it (decision 0036). */
export type Token = {
  id: string;
  status: 'draft' | 'active';
  kind: TokenKind;
  symbol: string;
  name: string;
  decimals: number;
  supply: Units;
  owner_address: string;
  owner_derivation_path: string | null;
  token_id: string | null;
  txid: string | null;
  created_at: string;
  deployed_at: string | null;
  /** Credits: what one unit (amt 1) is worth in minor units of `currency`, fixed at mint; null for other kinds. */
  unit_value_minor?: number | null;
  currency?: string | null;
  draft?: {
    transaction: string;
    inputs: { txid: string; vout: number; satoshis: number; address: string; derivation_path: string }[];
    mint_vout: number;
    fee_satoshis: number;
    change_satoshis: number;
    change_address: string;
    expires_at: string;
  };
};

export type TokenHolders = { token_id: string; symbol: string; decimals: number; holders: { address: string; balance: Units }[] };
export type TokenBalance = {
  token_id: string;
  address: string;
  symbol: string;
  decimals: number;
  balance: Units;
  confirmed: Units;
  holds: boolean;
};

/** Each kind in a few words, for the form's choices and the list. */
export const KIND_TEXT: Record<TokenKind, { title: string; about: string }> = {
  membership: { title: 'Membership', about: 'holding one is the pass. It is not money: you owe its holder nothing.' },
  credits: { title: 'Credits', about: 'bought in advance and spent with you: money you owe until they are spent.' },
  community: { title: 'Community currency', about: 'passed from person to person, for what your community agrees.' },
};

/** The most whole units a mint may have: 2^63 - 1, as BSV-21 amounts are read. */
const MAX_UNITS = 9_223_372_036_854_775_807n;

/** The most decimals a mint may have (the contracts service's bound). */
export const MAX_DECIMALS = 8;

/**
 * An amount as the merchant types it in the token's own unit ("1,000.50" of a token with 2 decimals) as the
 * whole units the chain counts ("100050"), by its digits: never through a float, which loses digits past 2^53.
 * Commas, spaces and underscores between digits are read as grouping. `what` names the amount in a refusal
 * (the supply, by default) and `whole` is an example of it.
 */
export function unitsOfAmount(text: string, decimals: number, symbol: string, { what = 'the supply', whole = '1000' } = {}): string {
  const typed = text.trim().replace(/(?<=\d)[,_\s](?=\d)/g, '');
  const match = /^(\d+)(?:\.(\d+))?$/.exec(typed);
  const example = decimals > 0 ? `${whole} or ${whole}.${'5'.padEnd(decimals, '0')}` : whole;
  if (!match) throw new Refusal(`"${text.trim()}" is not an amount: write it in digits, such as ${example}.`);
  const fraction = match[2] ?? '';
  if (fraction.length > decimals)
    throw new Refusal(
      decimals === 0
        ? `${symbol || 'This token'} has no decimals: ${what} is a whole number, such as ${whole}.`
        : `${symbol || 'This token'} has ${decimals} decimal${decimals === 1 ? '' : 's'}: write at most ${decimals} digit${decimals === 1 ? '' : 's'} after the point.`,
    );
  const units = BigInt(match[1]! + fraction.padEnd(decimals, '0'));
  if (units < 1n) throw new Refusal(`${what.charAt(0).toUpperCase()}${what.slice(1)} must be more than nothing.`);
  if (units > MAX_UNITS) throw new Refusal(`That is more than a token can have: at most ${MAX_UNITS} units on the chain.`);
  return units.toString();
}

/**
 * Whole units shown in the token's own unit with its symbol: "100050" of a 2-decimal BREW is "1,000.50 BREW",
 * by the digits. Every decimal is kept (a token's last unit is as real as its first).
 */
export function amountText(units: Units, decimals: number, symbol: string): string {
  const digits = String(units).padStart(decimals + 1, '0');
  const whole = digits.slice(0, digits.length - decimals);
  const fraction = decimals > 0 ? `.${digits.slice(-decimals)}` : '';
  return `${new Intl.NumberFormat('en-US').format(BigInt(whole))}${fraction} ${symbol}`;
}

/** A symbol as the contracts service takes one: 1 to 16 characters, none a space, a control or format character. */
export function symbolProblem(symbol: string): string | null {
  if (/^[^\p{C}\p{Z}\s]{1,16}$/u.test(symbol)) return null;
  if (!symbol) return 'Give the token a symbol, such as BREW.';
  if (/[\p{Z}\s]/u.test(symbol)) return 'A symbol has no spaces: write it as one word, such as BREW or BREWCLUB.';
  if ([...symbol].length > 16) return 'A symbol is at most 16 characters, such as BREW: wallets show it beside every amount.';
  return 'A symbol is letters, digits or signs a wallet can show, such as BREW.';
}

/** The path of a token's public routes. */
export const tokenPath = (tokenId: string) => `/api/v1/tokens/${encodeURIComponent(tokenId)}`;

/** A file path as one shell word, for a command to copy: as typed when it is plain, else in single quotes. */
export function shellWord(path: string): string {
  return /^[\w./~-]+$/.test(path) ? path : `'${path.replace(/'/g, `'\\''`)}'`;
}
