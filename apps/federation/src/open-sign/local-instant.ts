import type { Zone } from 'luxon';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/**
 * The instant (epoch milliseconds) at which a zone's clocks show `wall` (a local date and time written as epoch
 * milliseconds as if it were UTC, e.g. `Date.UTC(2026, 2, 8, 2, 30)` for 02:30 on 8 March).
 *
 * A time shown twice (clocks go back) is its first occurrence. A time never shown (clocks jump over it) is the next
 * instant there is: the end of the jump (02:30 on a night of 02:00→03:00 is 03:00). Luxon's own `DateTime.fromObject`
 * is not used for this: it picks between two occurrences by the real clock's offset today (so an answer would change
 * with the season it is asked in), and it moves a skipped time by the jump's length (03:30).
 */
export function localInstant(zone: Zone, wall: number): number {
  // The offsets the zone can have around that time (an instant is within 14 hours of its wall time): no zone changes twice in a day and a half.
  const offsets = new Set([-36, -18, 0, 18, 36].map((hours) => zone.offset(wall + hours * HOUR)));
  const shownAt = [...offsets].map((offset) => wall - offset * MINUTE).filter((instant) => wallTimeAt(zone, instant) === wall);
  if (shownAt.length > 0) return Math.min(...shownAt);
  // Skipped: the first instant whose wall time is at or after it, between reading it with the largest and the smallest offset.
  let before = wall - Math.max(...offsets) * MINUTE;
  let after = wall - Math.min(...offsets) * MINUTE;
  while (after - before > 1) {
    const middle = Math.floor((before + after) / 2);
    if (wallTimeAt(zone, middle) >= wall) after = middle;
    else before = middle;
  }
  return after;
}

/** The wall time (as epoch milliseconds read as UTC) a zone's clocks show at an instant. */
export function wallTimeAt(zone: Zone, instant: number): number {
  return instant + zone.offset(instant) * MINUTE;
}
