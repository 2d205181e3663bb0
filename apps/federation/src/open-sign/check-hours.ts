import { calendarDate, invalidInput, lineOfText, type InputIssue } from '@ctk/shared';
import { WEEKDAYS, type Hours, type OpeningPeriod, type SignOverride, type SpecialDay, type SpecialPeriod } from './hours.js';
import { instantOf } from './instant.js';
import { periodOverlaps } from './period-overlaps.js';
import { LOOK_BACK_DAYS } from './sign-state.js';

/** The limits of hours: how many periods and special days, how long a note, how far ahead an override may last. */
export const HOURS_LIMITS = { regularPeriods: 50, specialDays: 366, periodsPerSpecialDay: 10, noteCharacters: 140, overrideDays: 7 };

const DAY = 24 * 60 * 60_000;
const OPENS = /^([01]\d|2[0-3]):[0-5]\d$/;
const CLOSES = /^(([01]\d|2[0-3]):[0-5]\d|24:00)$/;
const NOTE = lineOfText('note', HOURS_LIMITS.noteCharacters);
const DATE = calendarDate('date');
// A special day this far before today (UTC) affects no answer any more: its periods end at most two days after its
// date in any zone, and signState looks back LOOK_BACK_DAYS for when the state began.
const KEPT_PAST_DAYS = LOOK_BACK_DAYS + 3;

/**
 * The owner's hours checked, or `validation_failed` naming every field that breaks a rule (`regular[2].closes`,
 * `special[0].periods[1].opens`, `override.until`, ...): times "HH:MM" (`closes` may be "24:00"); days among the
 * seven; at most 50 regular periods, 366 special days, 10 periods a special day; special dates real and unique; no
 * two periods of a day overlapping, a past-midnight period of the day before included; an override's `until` an
 * instant with an offset, after `now` and at most 7 days ahead; notes one line of at most 140 characters.
 *
 * Returns a normalised copy: regular periods sorted by day then opening, special days by date (their periods by
 * opening), notes trimmed (an empty one left out). Special days dated more than 11 days before `now` (UTC) are left
 * out, so stored hours do not grow forever: none of them can change an answer of signState any more.
 */
export function checkHours(hours: Hours, now: Date): Hours {
  const issues = [...regularIssues(hours.regular), ...specialIssues(hours.special)];
  if (hours.override !== undefined) issues.push(...overrideIssues(hours.override, now));
  if (issues.length > 0) throw invalidInput(issues);
  const overlaps = periodOverlaps(hours);
  if (overlaps.length > 0) throw invalidInput(overlaps);
  return normalised(hours, now);
}

function regularIssues(regular: readonly OpeningPeriod[]): InputIssue[] {
  if (!Array.isArray(regular)) return [{ field: 'regular', message: 'regular must be a list of periods' }];
  if (regular.length > HOURS_LIMITS.regularPeriods)
    return [{ field: 'regular', message: `regular must have at most ${HOURS_LIMITS.regularPeriods} periods` }];
  return regular.flatMap((period, i) => [
    ...(WEEKDAYS.includes(period.day) ? [] : [{ field: `regular[${i}].day`, message: `day must be one of ${WEEKDAYS.join(', ')}` }]),
    ...timeIssues(period, `regular[${i}]`),
  ]);
}

function specialIssues(special: readonly SpecialDay[]): InputIssue[] {
  if (!Array.isArray(special)) return [{ field: 'special', message: 'special must be a list of days' }];
  if (special.length > HOURS_LIMITS.specialDays)
    return [{ field: 'special', message: `special must have at most ${HOURS_LIMITS.specialDays} days` }];
  const seen = new Map<string, number>();
  return special.flatMap((day, j) => {
    const field = `special[${j}]`;
    const issues: InputIssue[] = [];
    const first = seen.get(day.date);
    const date = DATE.safeParse(day.date);
    if (!date.success) issues.push({ field: `${field}.date`, message: date.error.issues[0]?.message ?? 'date is not a calendar date' });
    else if (first !== undefined)
      issues.push({ field: `${field}.date`, message: `${day.date} is already special[${first}]: a date is special once` });
    else seen.set(day.date, j);
    if (!Array.isArray(day.periods)) issues.push({ field: `${field}.periods`, message: 'periods must be a list (empty: closed all day)' });
    else if (day.periods.length > HOURS_LIMITS.periodsPerSpecialDay)
      issues.push({ field: `${field}.periods`, message: `periods must be at most ${HOURS_LIMITS.periodsPerSpecialDay}` });
    else issues.push(...day.periods.flatMap((period: SpecialPeriod, k: number) => timeIssues(period, `${field}.periods[${k}]`)));
    return [...issues, ...noteIssues(day.note, `${field}.note`)];
  });
}

function overrideIssues(override: SignOverride, now: Date): InputIssue[] {
  const issues: InputIssue[] = [];
  if (override.state !== 'open' && override.state !== 'closed')
    issues.push({ field: 'override.state', message: 'state must be open or closed' });
  const until = instantOf(override.until);
  const message =
    until === undefined
      ? 'until must be an ISO 8601 date and time with an offset or Z, such as 2026-11-28T17:00:00-08:00'
      : until <= now.getTime()
        ? 'until must be in the future'
        : until > now.getTime() + HOURS_LIMITS.overrideDays * DAY
          ? `until must be at most ${HOURS_LIMITS.overrideDays} days ahead`
          : undefined;
  if (message) issues.push({ field: 'override.until', message });
  return [...issues, ...noteIssues(override.note, 'override.note')];
}

function timeIssues(period: SpecialPeriod, field: string): InputIssue[] {
  const issues: InputIssue[] = [];
  if (typeof period.opens !== 'string' || !OPENS.test(period.opens))
    issues.push({ field: `${field}.opens`, message: 'opens must be a time HH:MM from 00:00 to 23:59' });
  if (typeof period.closes !== 'string' || !CLOSES.test(period.closes))
    issues.push({ field: `${field}.closes`, message: 'closes must be a time HH:MM from 00:00 to 24:00' });
  return issues;
}

function noteIssues(note: string | undefined, field: string): InputIssue[] {
  if (note === undefined) return [];
  const parsed = NOTE.safeParse(note);
  return parsed.success ? [] : [{ field, message: parsed.error.issues[0]?.message ?? 'note is not valid' }];
}

function normalised(hours: Hours, now: Date): Hours {
  const byOpening = (a: SpecialPeriod, b: SpecialPeriod) => compare(a.opens, b.opens) || compare(a.closes, b.closes);
  const oldest = new Date(now.getTime() - KEPT_PAST_DAYS * DAY).toISOString().slice(0, 10);
  const regular = hours.regular
    .map(({ day, opens, closes }) => ({ day, opens, closes }))
    .sort((a, b) => WEEKDAYS.indexOf(a.day) - WEEKDAYS.indexOf(b.day) || byOpening(a, b));
  const special = hours.special
    .filter((day) => day.date >= oldest)
    .map(({ date, periods, note }) => ({
      date,
      periods: periods.map(({ opens, closes }) => ({ opens, closes })).sort(byOpening),
      ...noted(note),
    }))
    .sort((a, b) => compare(a.date, b.date));
  if (!hours.override) return { regular, special };
  const { state, until, note } = hours.override;
  return { regular, special, override: { state, until, ...noted(note) } };
}

function noted(note: string | undefined): { note?: string } {
  const trimmed = note?.trim();
  return trimmed ? { note: trimmed } : {};
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
