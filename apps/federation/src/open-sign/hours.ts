/** A day of the week as the API spells it. */
export type Weekday = 'mon' | 'tue' | 'wed' | 'thu' | 'fri' | 'sat' | 'sun';

/** The seven days in the order of the week, Monday first (ISO 8601: index + 1 is luxon's `weekday`). */
export const WEEKDAYS: readonly Weekday[] = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];

/**
 * A regular period: opens on `day` at `opens` (local "HH:MM"), closes at `closes`; a `closes` at or before `opens`
 * is past midnight, on the next day ("22:00"-"02:00"); "00:00"-"00:00" or "00:00"-"24:00" is the whole day.
 * "24:00" is allowed only as closes.
 */
export type OpeningPeriod = { day: Weekday; opens: string; closes: string };

/** The hours of a special day: `opens` and `closes` as in {@link OpeningPeriod}, on the special day's date. */
export type SpecialPeriod = { opens: string; closes: string };

/**
 * A special day (a holiday, an event): on `date` ("YYYY-MM-DD", local) the regular periods that OPEN that day are
 * replaced by these `periods` (empty: closed all that day). A period of the day before that runs past midnight into it still runs.
 */
export type SpecialDay = { date: string; periods: SpecialPeriod[]; note?: string };

/** The merchant's manual sign: "closed now" or "open late/open now", until an instant (ISO 8601 with offset or Z), after which the hours apply again. */
export type SignOverride = { state: 'open' | 'closed'; until: string; note?: string };

/** A shop's published opening hours: the regular week, the special days, and the manual sign if any. */
export type Hours = { regular: OpeningPeriod[]; special: SpecialDay[]; override?: SignOverride };

/** Minutes after local midnight of a valid "HH:MM" (or "24:00": 1440). */
export function minutesOf(time: string): number {
  return Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));
}

/**
 * Minutes after the opening day's local midnight at which a period closes: a `closes` at or before `opens` is on the
 * next day, so the answer is in (opens, opens + 1440]; "24:00" is the next day's midnight.
 */
export function closingMinutesOf(period: SpecialPeriod): number {
  const opens = minutesOf(period.opens);
  const closes = minutesOf(period.closes);
  return closes > opens ? closes : closes + 24 * 60;
}
