import type { InputIssue } from '@ctk/shared';
import { closingMinutesOf, minutesOf, WEEKDAYS, type Hours, type SpecialPeriod } from './hours.js';

const DAY = 24 * 60;
const WEEK = 7 * DAY;

/** A period named for a message: where it is in the input and how it reads ("regular[1] (sun 22:00-02:00)"). */
type Named = { field: string; label: string; start: number; end: number };

/**
 * The overlaps between periods of one day, hours whose times are all valid: two regular periods of a day (also a
 * period of the day before running past midnight into it, Sunday's into Monday), two periods of a special day, and a
 * special day's period with the previous day's running past midnight into it (or its own running into the next day's first).
 * Each names the field of the period that opens (or runs) into another, and says which.
 */
export function periodOverlaps(hours: Hours): InputIssue[] {
  const issues: InputIssue[] = [];
  const regular = hours.regular.map((period, i) => named(`regular[${i}]`, `${period.day} `, period, WEEKDAYS.indexOf(period.day) * DAY));
  issues.push(...overlapsWithin(regular, WEEK));
  const specialDates = new Map(hours.special.map((day, j) => [day.date, j]));
  hours.special.forEach((day, j) => {
    const periods = day.periods.map((period, k) => named(`special[${j}].periods[${k}]`, `${day.date} `, period, 0));
    issues.push(...overlapsWithin(periods, 0));
    // The day before, shifted one day back, so its periods past midnight run into this one's first minutes; and the day after.
    for (const spill of periodsOfDate(hours, specialDates, dayAfter(day.date, -1), -DAY))
      for (const period of periods)
        if (spill.end > 0 && period.start < spill.end)
          issues.push({ field: `${period.field}.opens`, message: `overlaps ${spill.label}, which runs past midnight into ${day.date}` });
    if (specialDates.has(dayAfter(day.date, 1))) return;
    for (const next of periodsOfDate(hours, specialDates, dayAfter(day.date, 1), DAY))
      for (const period of periods)
        if (period.end > DAY && next.start < period.end)
          issues.push({
            field: `${period.field}.closes`,
            message: `runs past midnight into the opening of ${next.label} on ${dayAfter(day.date, 1)}`,
          });
  });
  return issues;
}

function named(field: string, prefix: string, period: SpecialPeriod, offset: number): Named {
  const start = offset + minutesOf(period.opens);
  const end = offset + closingMinutesOf(period);
  return { field, label: `${field} (${prefix}${period.opens}-${period.closes})`, start, end };
}

/** Each period opening inside another (in a cycle of `cycle` minutes, 0 for none), named once, the later of the two. */
function overlapsWithin(periods: readonly Named[], cycle: number): InputIssue[] {
  const issues: InputIssue[] = [];
  const inside = (point: number, period: Named) =>
    [0, cycle, -cycle].some((shift) => point + shift >= period.start && point + shift < period.end);
  const named = new Set<string>();
  periods.forEach((b, j) => {
    for (const a of periods.slice(0, j)) {
      const [early, late] = inside(b.start, a) ? [a, b] : inside(a.start, b) ? [b, a] : [];
      if (!early || !late || named.has(late.field)) continue;
      named.add(late.field);
      const [from, into] = [dayOf(early), dayOf(late)];
      const message =
        from === into ? `overlaps ${early.label}` : `overlaps ${early.label}, which runs past midnight from ${from} into ${into}`;
      issues.push({ field: `${late.field}.opens`, message });
    }
  });
  return issues;
}

/** The weekday a period of the week opens on (a special day's periods all say Monday: only whether two differ matters). */
function dayOf(period: Named) {
  return WEEKDAYS[Math.floor(period.start / DAY) % 7];
}

/** The periods that open on a date (its special day's, else its weekday's regular ones), placed `offset` minutes from the day in question. */
function periodsOfDate(hours: Hours, specialDates: Map<string, number>, date: string, offset: number): Named[] {
  const j = specialDates.get(date);
  const special = j === undefined ? undefined : hours.special[j];
  if (special) return special.periods.map((period, k) => named(`special[${j}].periods[${k}]`, `${date} `, period, offset));
  const weekday = WEEKDAYS[(new Date(`${date}T00:00:00Z`).getUTCDay() + 6) % 7];
  return hours.regular.flatMap((period, i) => (period.day === weekday ? [named(`regular[${i}]`, `${period.day} `, period, offset)] : []));
}

/** The date `days` after a "YYYY-MM-DD" date (negative: before). */
function dayAfter(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY * 60_000).toISOString().slice(0, 10);
}
