import { calendarDate, isTimeZone } from '@ctk/shared';
import { z } from 'zod';
import { checkFromNotAfterTo } from './from-not-after-to.js';

/** The calendar date (YYYY-MM-DD) it is now, or at `instant`, in the time zone. */
export function localDateIn(timeZone: string, instant = new Date()): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(instant);
}

/** Calendar days from one YYYY-MM-DD date to another, both included. */
export function daysBetween(from: string, to: string): number {
  return (Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000 + 1;
}

export const timeZone = z
  .string()
  .transform((name) => name || 'UTC')
  .refine(isTimeZone, 'time_zone must be an IANA time zone name, such as Europe/London or America/New_York');

/** The most days a range may span: a year of days for daily sales, about ten years for the rest. */
export const MAX_DAYS_BY_DAY = 366;
export const MAX_DAYS = 3660;

/** The fields of a ranged report: local dates `from` to `to`, both included, in a time zone. */
export const rangeFields = { from: calendarDate('from'), to: calendarDate('to'), timeZone };

export type ReportRange = { from: string; to: string; timeZone: string };

/** Adds the range's problems: `from` after `to`, or a span of more than `maxDays` days (named on `from`). */
export function checkRange(range: ReportRange, maxDays: number, context: z.RefinementCtx): void {
  if (!checkFromNotAfterTo(range, context)) return;
  if (daysBetween(range.from, range.to) > maxDays) {
    context.addIssue({ code: 'custom', message: `the range may span at most ${maxDays} days: narrow from and to`, path: ['from'] });
  }
}
