import { Refusal } from './form.js';

/** A moment as the reader's locale writes it, with the date and the time of day, in the shop's time zone. */
export function formatDateTime(iso: string): string {
  return new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short', timeZone: shopTimeZone }).format(new Date(iso));
}

/**
 * An amount in minor units as the reader's locale writes it in its currency: the digits are placed by the
 * currency's own exponent from the integer (a bigint past 2^53), never through a float (a decimal string goes to Intl).
 */
export function formatMoney(minor: number | bigint, currency: string): string {
  const format = new Intl.NumberFormat(undefined, { style: 'currency', currency });
  const digits = format.resolvedOptions().maximumFractionDigits ?? 2;
  const whole = BigInt(minor);
  const size = whole < 0n ? -whole : whole;
  const unit = 10n ** BigInt(digits);
  const decimal = `${whole < 0n ? '-' : ''}${size / unit}${digits ? `.${String(size % unit).padStart(digits, '0')}` : ''}`;
  return format.format(decimal as `${number}`);
}

/** The reader's time zone (the device's). */
export const TIME_ZONE = Intl.DateTimeFormat().resolvedOptions().timeZone;

/** The time zone of the shop whose page is open (capability.tsx sets it), which its times and days are in; else the device's. */
let shopTimeZone = TIME_ZONE;
export function setShopTimeZone(zone: string | null): void {
  shopTimeZone = zone || TIME_ZONE;
}
export const shopZone = () => shopTimeZone;

/** A moment in full, with the day of the week, in the shop's time zone: "Wednesday 25 November 2026 at 18:00". */
export function formatDateTimeFull(moment: Date | string): string {
  return new Intl.DateTimeFormat(undefined, { dateStyle: 'full', timeStyle: 'short', timeZone: shopTimeZone }).format(new Date(moment));
}

/** A moment as the wall clock of a time zone reads it, as a `datetime-local` input takes it: "2026-11-25T18:00". */
export function wallClock(moment: Date, zone = shopTimeZone): string {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: zone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(moment);
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((found) => found.type === type)?.value ?? '00';
  return `${part('year').padStart(4, '0')}-${part('month')}-${part('day')}T${part('hour')}:${part('minute')}:${part('second')}`;
}

/** How far a time zone's wall clock is ahead of UTC at a moment, in milliseconds. */
function zoneOffset(at: number, zone: string): number {
  return Date.parse(`${wallClock(new Date(at), zone)}Z`) - Math.floor(at / 1000) * 1000;
}

/**
 * The moment a wall-clock time ("2026-11-25T18:00", as a `datetime-local` input gives it) names in a time zone
 * (the shop's), whatever the device's own zone; null for a time that is not one, or that the zone's clocks skip
 * (when they go forward).
 */
export function momentInZone(local: string, zone = shopTimeZone): Date | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(local.trim());
  if (!match) return null;
  const [year, month, day, hour, minute, second] = match.slice(1).map((digits) => Number(digits ?? 0)) as number[];
  const wall = Date.UTC(year!, month! - 1, day!, hour!, minute!, second!);
  if (Number.isNaN(wall)) return null;
  // The offset where the wall time falls read as UTC, then again at the moment found: they differ across a change of the clocks.
  const first = wall - zoneOffset(wall, zone);
  const moment = new Date(wall - zoneOffset(first, zone));
  return wallClock(moment, zone) === new Date(wall).toISOString().slice(0, 19) ? moment : null;
}

/** A calendar date, YYYY-MM-DD, `daysAgo` days before today in the time zone (UTC for the ledger's dates). */
export function dateDaysAgo(daysAgo: number, timeZone = shopTimeZone): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone }).format(new Date(Date.now() - daysAgo * 86_400_000));
}

/** An amount as typed ("4.50", "4,50", "4"), in cents, by its digits: never through a float. */
export function minorUnits(text: string): number {
  const match = /^\s*(\d{1,9})(?:[.,](\d{1,2}))?\s*$/.exec(text);
  if (!match) throw new Refusal(`"${text}" is not an amount: write it as 4.50.`);
  return Number(match[1]) * 100 + Number((match[2] ?? '0').padEnd(2, '0'));
}

/** Cents as an amount to type back ("5.75"), by their digits. */
export function decimalOf(minor: number): string {
  return `${Math.trunc(minor / 100)}.${String(minor % 100).padStart(2, '0')}`;
}

/** A percentage as typed ("7.25", "5") as the decimal string pos takes for a rate ("0.0725", "0.05"), by its digits. */
export function rateOfPercent(text: string): string {
  const match = /^\s*(\d{1,2})(?:[.,](\d{1,4}))?\s*%?\s*$/.exec(text);
  if (!match) throw new Refusal(`"${text}" is not a percentage: write it as 7.25.`);
  return `0.${match[1]!.padStart(2, '0')}${match[2] ?? ''}`.replace(/0+$/, '');
}

/** A rate's decimal string ("0.0725") as a percentage to read ("7.25%"), by its digits. */
export function percentOfRate(rate: string): string {
  const digits = (rate.split('.')[1] ?? '').padEnd(2, '0');
  const fraction = digits.slice(2);
  return `${Number(digits.slice(0, 2))}${fraction ? `.${fraction}` : ''}%`;
}

/** A percentage as typed ("12.5") in basis points (1250), by its digits. */
export function basisPointsOf(text: string): number {
  const match = /^\s*(\d{1,3})(?:[.,](\d{1,2}))?\s*%?\s*$/.exec(text);
  if (!match) throw new Refusal(`"${text}" is not a percentage: write it as 12.5.`);
  return Number(match[1]) * 100 + Number((match[2] ?? '0').padEnd(2, '0'));
}
