import { Refusal } from './form.js';

/** Satoshis in one BSV. */
const PER_BSV = 100_000_000n;

/** The most satoshis there will ever be: 21 million BSV. */
export const MAX_SATOSHIS = 2_100_000_000_000_000;

/** A number of satoshis grouped as the reader's locale writes numbers: "150,000". */
export function groupedSatoshis(satoshis: number): string {
  return new Intl.NumberFormat().format(satoshis);
}

/** Satoshis as BSV, by their digits (never through a float), trailing zeros dropped: 150000 is "0.0015 BSV". */
export function bsvText(satoshis: number): string {
  const whole = BigInt(satoshis);
  const fraction = String(whole % PER_BSV)
    .padStart(8, '0')
    .replace(/0+$/, '');
  return `${new Intl.NumberFormat().format(whole / PER_BSV)}${fraction ? `.${fraction}` : ''} BSV`;
}

/** An amount both ways: "150,000 satoshis (0.0015 BSV)". */
export function satoshisText(satoshis: number): string {
  return `${groupedSatoshis(satoshis)} satoshi${satoshis === 1 ? '' : 's'} (${bsvText(satoshis)})`;
}

/**
 * Satoshis as typed ("150000", "150,000", "150 000"), a whole number by its digits; `what` names the amount in
 * a refusal. Commas, spaces and underscores between digits are read as grouping.
 */
export function satoshisOf(text: string, what = 'the amount'): number {
  const typed = text.trim().replace(/(?<=\d)[,_\s](?=\d)/g, '');
  if (!typed) throw new Refusal(`Enter ${what} in satoshis, such as 150000.`);
  if (!/^\d+$/.test(typed)) throw new Refusal(`"${text.trim()}" is not a number of satoshis: write it in digits, such as 150000.`);
  const satoshis = Number(typed);
  if (!Number.isSafeInteger(satoshis) || satoshis > MAX_SATOSHIS) throw new Refusal('That is more satoshis than there will ever be.');
  return satoshis;
}
