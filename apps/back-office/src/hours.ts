import { ApiError } from './api.js';
import { Refusal } from './form.js';

/** A shop's opening hours as federation keeps them (`GET|PUT /api/v1/orgs/:handle/hours`). */
export const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export type Weekday = (typeof WEEKDAYS)[number];
export const DAY_NAMES: Record<Weekday, string> = {
  mon: 'Monday',
  tue: 'Tuesday',
  wed: 'Wednesday',
  thu: 'Thursday',
  fri: 'Friday',
  sat: 'Saturday',
  sun: 'Sunday',
};

/** A period of a day: `closes` at or before `opens` runs past midnight into the next day. */
export type Period = { opens: string; closes: string };
export type SpecialDay = { date: string; periods: Period[]; note?: string };
export type SignOverride = { state: 'open' | 'closed'; until: string; note?: string };
export type Hours = {
  regular: (Period & { day: Weekday })[];
  special: SpecialDay[];
  override: SignOverride | null;
  /** Output only: the shop's time zone, never sent back. */
  time_zone?: string;
};

/** The editor's hours: each weekday's periods (none: closed all day), and each special day as typed. */
export type Draft = { week: Record<Weekday, Period[]>; special: SpecialDraft[] };
export type SpecialDraft = { key: number; date: string; closed: boolean; periods: Period[]; note: string };

/** What a day starts with when it opens in the editor. */
export const NEW_PERIOD: Period = { opens: '09:00', closes: '17:00' };

let keys = 0;
export const newSpecial = (date = ''): SpecialDraft => ({ key: ++keys, date, closed: true, periods: [], note: '' });

export function draftOf(hours: Hours): Draft {
  const week = Object.fromEntries(WEEKDAYS.map((day) => [day, [] as Period[]])) as Record<Weekday, Period[]>;
  for (const { day, opens, closes } of hours.regular) week[day].push({ opens, closes });
  const special = hours.special.map((day) => ({
    ...newSpecial(day.date),
    closed: day.periods.length === 0,
    periods: day.periods.map(({ opens, closes }) => ({ opens, closes })),
    note: day.note ?? '',
  }));
  return { week, special };
}

/**
 * The hours to send for a draft (the override kept as it is), and where each field the API names sits in the
 * editor: `regular[3].closes` is the editor's `mon.1.closes` (the periods go out day by day, in order).
 */
export function hoursOf(
  draft: Draft,
  override: SignOverride | null,
): { hours: Omit<Hours, 'time_zone'>; editorField: (field: string) => string } {
  const regular = WEEKDAYS.flatMap((day) => draft.week[day].map((period) => ({ day, ...period })));
  const slots = WEEKDAYS.flatMap((day) => draft.week[day].map((_, k) => `${day}.${k}`));
  const special = draft.special.map((day) => ({
    date: day.date,
    periods: day.closed ? [] : day.periods,
    ...(day.note.trim() ? { note: day.note.trim() } : {}),
  }));
  const editorField = (field: string) => field.replace(/^regular\[(\d+)\]/, (whole, i: string) => slots[Number(i)] ?? whole);
  return { hours: { regular, special, override }, editorField };
}

/** The API's refusal of hours, field by field (editor fields), in words for the owner; null when it is not one. */
export function fieldProblems(error: unknown, editorField: (field: string) => string = (f) => f): Record<string, string> | null {
  if (!(error instanceof ApiError) || error.code !== 'validation_failed') return null;
  const field = error.details?.field as string | undefined;
  const issues =
    (error.details?.issues as { field: string; message: string }[] | undefined) ?? (field ? [{ field, message: error.message }] : []);
  const found: Record<string, string> = {};
  for (const issue of issues) found[editorField(issue.field)] ??= plainWords(issue.message);
  return Object.keys(found).length > 0 ? found : null;
}

const DAY_WORD = /\b(mon|tue|wed|thu|fri|sat|sun)\b/g;

/** federation's message for a field, as an owner reads it: days by name, periods by their times, no list indexes. */
export function plainWords(message: string): string {
  const text = message
    .replace(/^opens must be a time.*/, 'Give the opening time.')
    .replace(/^closes must be a time.*/, 'Give the closing time.')
    .replace(/^date must be a calendar date.*/, 'Choose the date.')
    .replace(/^until must be in the future$/, 'Choose a time still to come.')
    .replace(/^until must be at most (\d+) days ahead$/, 'The sign can be changed for at most $1 days ahead.')
    .replace(/ is already special\[\d+\]: a date is special once/, ' is already a special day above.')
    .replace(/regular\[\d+\] \((\w{3}) ([\d:]+)-([\d:]+)\)/g, (_, day: Weekday, opens: string, closes: string) => {
      return `${DAY_NAMES[day] ?? day}'s ${clockTime(opens)} to ${clockTime(closes)} period`;
    })
    .replace(/special\[\d+\]\.periods\[\d+\] \(([\d-]+) ([\d:]+)-([\d:]+)\)/g, (_, date: string, opens: string, closes: string) => {
      return `the ${clockTime(opens)} to ${clockTime(closes)} period of ${date}`;
    })
    .replace(DAY_WORD, (day) => DAY_NAMES[day as Weekday]);
  const sentence = text.charAt(0).toUpperCase() + text.slice(1);
  return /[.!?]$/.test(sentence) ? sentence : `${sentence}.`;
}

/** Whether a period runs past midnight (it closes at or before it opens). */
export const pastMidnight = (period: Period) => Boolean(period.opens && period.closes && period.closes <= period.opens);

/** The day after a weekday, for "closes at 02:00 on Sunday". */
export const dayAfter = (day: Weekday): Weekday => WEEKDAYS[(WEEKDAYS.indexOf(day) + 1) % 7]!;

/** The sign set by hand while it lasts; null once its time has passed (then the hours speak again). */
export const liveOverride = (override: SignOverride | null, now = Date.now()) =>
  override && Date.parse(override.until) > now ? override : null;

/** "02:00" as the reader's locale writes a time of day ("2:00 AM"); "24:00" is midnight. */
export function clockTime(time: string): string {
  const [hours, minutes] = time.split(':').map(Number) as [number, number];
  return new Intl.DateTimeFormat(undefined, { hour: 'numeric', minute: '2-digit', timeZone: 'UTC' }).format(
    Date.UTC(1970, 0, 1, hours, minutes),
  );
}

/** A 403 on changing the hours, said for the person at the page; any other failure as it is. */
export function asAdminOnly(error: unknown): unknown {
  if (error instanceof ApiError && error.status === 403)
    return new Refusal("Only the shop's owner or an admin can change the hours and the sign. Ask one of them to do it.");
  return error;
}
