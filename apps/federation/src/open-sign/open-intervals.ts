import type { Zone } from 'luxon';
import { closingMinutesOf, minutesOf, WEEKDAYS, type Hours, type SpecialDay, type SpecialPeriod } from './hours.js';
import { localInstant, wallTimeAt } from './local-instant.js';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

/** A time the shop is open, from `start` (included) to `end` (excluded), in epoch milliseconds. */
export type OpenInterval = { start: number; end: number };

/** An open interval of one period, with the special day it comes from (none: the regular hours). */
export type PeriodInterval = OpenInterval & { special?: SpecialDay };

/**
 * The open intervals of every period that opens on a local date from two days before `from`'s to the day after `to`'s,
 * sorted by start: so every interval that touches [from, to] is there, and whichever touches one of them too.
 * On a special day its periods replace the regular ones opening that day. A period skipped whole by a clock change is none.
 */
export function periodIntervals(hours: Hours, zone: Zone, from: number, to: number): PeriodInterval[] {
  const specialDays = new Map(hours.special.map((day) => [day.date, day]));
  const intervals: PeriodInterval[] = [];
  const lastDay = Math.floor(wallTimeAt(zone, to) / DAY) + 1;
  for (let day = Math.floor(wallTimeAt(zone, from) / DAY) - 2; day <= lastDay; day++) {
    const midnight = day * DAY;
    const special = specialDays.get(new Date(midnight).toISOString().slice(0, 10));
    const weekday = WEEKDAYS[(new Date(midnight).getUTCDay() + 6) % 7];
    const periods: SpecialPeriod[] = special ? special.periods : hours.regular.filter((period) => period.day === weekday);
    for (const period of periods) {
      const start = localInstant(zone, midnight + minutesOf(period.opens) * MINUTE);
      const end = localInstant(zone, midnight + closingMinutesOf(period) * MINUTE);
      if (end > start) intervals.push(special ? { start, end, special } : { start, end });
    }
  }
  return intervals.sort((a, b) => a.start - b.start);
}

/** The intervals joined where they overlap or touch (a period closing at midnight and the next day's opening at midnight are one), sorted by start. */
export function mergeIntervals(intervals: readonly OpenInterval[]): OpenInterval[] {
  const merged: OpenInterval[] = [];
  for (const { start, end } of [...intervals].sort((a, b) => a.start - b.start)) {
    const last = merged.at(-1);
    if (last && start <= last.end) last.end = Math.max(last.end, end);
    else merged.push({ start, end });
  }
  return merged;
}
