import type { Hours, SpecialPeriod, Weekday } from './hours.js';

/** A schema.org `OpeningHoursSpecification` (https://schema.org/OpeningHoursSpecification), as JSON-LD. */
export type OpeningHoursSpecification = {
  '@type': 'OpeningHoursSpecification';
  dayOfWeek?: string;
  opens: string;
  closes: string;
  validFrom?: string;
  validThrough?: string;
};

const DAY_OF_WEEK: Record<Weekday, string> = {
  mon: 'https://schema.org/Monday',
  tue: 'https://schema.org/Tuesday',
  wed: 'https://schema.org/Wednesday',
  thu: 'https://schema.org/Thursday',
  fri: 'https://schema.org/Friday',
  sat: 'https://schema.org/Saturday',
  sun: 'https://schema.org/Sunday',
};

/**
 * The hours as schema.org `OpeningHoursSpecification` objects (for a LocalBusiness's `openingHoursSpecification`), in
 * the order given: one per regular period (`dayOfWeek`, `opens`, `closes` as "HH:MM:SS"), then one per period of each
 * special day with `validFrom` and `validThrough` its date. A period past midnight keeps `opens` after `closes`, as
 * schema.org allows; a period ending at midnight ("24:00", or "00:00" after opening) closes "23:59:59", so the whole day
 * is "00:00:00"-"23:59:59". A special day closed all day is `opens` and `closes` "00:00:00", as Google documents.
 * The override is left out: it is a moment's sign, not published hours.
 */
export function openingHoursSpecification(hours: Hours): OpeningHoursSpecification[] {
  const regular = hours.regular.map((period) => ({
    '@type': 'OpeningHoursSpecification' as const,
    dayOfWeek: DAY_OF_WEEK[period.day],
    ...times(period),
  }));
  const special = hours.special.flatMap((day) => {
    const dates = { validFrom: day.date, validThrough: day.date };
    if (day.periods.length === 0)
      return [{ '@type': 'OpeningHoursSpecification' as const, opens: '00:00:00', closes: '00:00:00', ...dates }];
    return day.periods.map((period) => ({ '@type': 'OpeningHoursSpecification' as const, ...times(period), ...dates }));
  });
  return [...regular, ...special];
}

function times(period: SpecialPeriod): { opens: string; closes: string } {
  const atMidnight = period.closes === '24:00' || period.closes === '00:00';
  return { opens: `${period.opens}:00`, closes: atMidnight ? '23:59:59' : `${period.closes}:00` };
}
