import { calendarDate } from '@ctk/shared';
import { z } from 'zod';
import type { DateRange } from '../data/journal-repository.js';

/**
 * The last date there is. A range up to it is open at the end: the day after it is in year 10000, which
 * no timestamp parameter carries.
 */
const LAST_DATE = '9999-12-31';

/** A UTC calendar date bound, or proto3's empty string: open at that end. */
const bound = (field: string) => z.union([z.literal(''), calendarDate(field)]);

/**
 * The journal's date range as the ledger and its exports take it: UTC calendar dates `from` and `to`,
 * both included, either one empty for an open end; `from` after `to` is refused (`checkFromNotAfterTo`).
 */
export const journalRangeFields = { from: bound('from'), to: bound('to') };

/** The instants the dates cover: from midnight UTC of `from` up to (not including) the midnight after `to`. */
export function journalRange(range: { from: string; to: string }): DateRange {
  return {
    from: range.from ? new Date(`${range.from}T00:00:00Z`) : undefined,
    to: range.to && range.to !== LAST_DATE ? dayAfter(range.to) : undefined,
  };
}

function dayAfter(date: string): Date {
  const next = new Date(`${date}T00:00:00Z`);
  next.setUTCDate(next.getUTCDate() + 1);
  return next;
}
