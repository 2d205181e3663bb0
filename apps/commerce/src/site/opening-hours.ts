import type { Hours } from '@ctk/proto/ctk/federation/v1/federation';

const DAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
const DAY_NAMES: Record<string, string> = {
  mon: 'Monday',
  tue: 'Tuesday',
  wed: 'Wednesday',
  thu: 'Thursday',
  fri: 'Friday',
  sat: 'Saturday',
  sun: 'Sunday',
};

/** A closing time of "24:00" is the end of the day, as schema.org writes it. */
const closing = (time: string) => (time === '24:00' ? '23:59' : time);

/**
 * The hours as schema.org's `openingHoursSpecification`: each regular period on its day (a period past
 * midnight closes at a time before it opens, as schema.org reads it), and each special day from `today`
 * on, valid that day only (closed all day: opens and closes at 00:00). The manual sign is left out: it is
 * the live badge's, not a published fact.
 */
export function openingHoursSpecification(hours: Hours | undefined, today: string): object[] {
  if (!hours) return [];
  const regular = hours.regular.map((period) => ({
    '@type': 'OpeningHoursSpecification',
    dayOfWeek: `https://schema.org/${DAY_NAMES[period.day]}`,
    opens: period.opens,
    closes: closing(period.closes),
  }));
  const special = upcoming(hours, today).flatMap((day) =>
    (day.periods.length ? day.periods : [{ opens: '00:00', closes: '00:00' }]).map((period) => ({
      '@type': 'OpeningHoursSpecification',
      validFrom: day.date,
      validThrough: day.date,
      opens: period.opens,
      closes: closing(period.closes),
    })),
  );
  return [...regular, ...special];
}

export type DayHours = { day: string; periods: string[] };

/** The week as a reader sees it, Monday first: each day's periods ("07:00–17:00"), none for a day closed. */
export function weekRows(hours: Hours | undefined): DayHours[] {
  return DAYS.map((day) => ({
    day: DAY_NAMES[day]!,
    periods: (hours?.regular ?? [])
      .filter((period) => period.day === day)
      .sort((a, b) => a.opens.localeCompare(b.opens))
      .map((period) => `${period.opens}–${period.closes}`),
  }));
}

/** Special days from `today` (the shop's local date, YYYY-MM-DD) on, in date order. */
export function upcoming(hours: Hours | undefined, today: string): Hours['special'] {
  return (hours?.special ?? []).filter((day) => day.date >= today).sort((a, b) => a.date.localeCompare(b.date));
}

/** The shop's local date now, YYYY-MM-DD, in its IANA time zone (UTC when it is not one). */
export function localDate(now: Date, timeZone: string): string {
  try {
    return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);
  } catch {
    return now.toISOString().slice(0, 10);
  }
}
