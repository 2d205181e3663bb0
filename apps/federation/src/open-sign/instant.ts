import { DateTime } from 'luxon';

// A date, a time and an offset (or Z): an instant. Without an offset the text would be read in the server's zone.
const INSTANT_WITH_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}(:?\d{2})?)$/;

/** The epoch milliseconds of an ISO 8601 date and time with an offset or Z ("2026-11-28T17:00:00-08:00"), or undefined if it is none. */
export function instantOf(text: string): number | undefined {
  if (typeof text !== 'string' || !INSTANT_WITH_OFFSET.test(text)) return undefined;
  const instant = DateTime.fromISO(text, { setZone: true });
  return instant.isValid ? instant.toMillis() : undefined;
}
