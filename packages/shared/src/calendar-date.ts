import { z } from 'zod';

/**
 * A calendar date YYYY-MM-DD from 0001-01-01 to 9999-12-31, named `field` in the message. Year 0000 has
 * the shape but is no date in PostgreSQL's calendar (1 BC comes before 1 AD), so it would fail there.
 */
export function calendarDate(field: string) {
  const message = `${field} must be a calendar date YYYY-MM-DD from 0001-01-01 to 9999-12-31, such as 2026-01-31`;
  return z.iso.date({ error: message }).refine((date) => !date.startsWith('0000-'), { error: message });
}
