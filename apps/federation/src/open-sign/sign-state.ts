import { invalidInput, isTimeZone } from '@ctk/shared';
import { DateTime, IANAZone } from 'luxon';
import type { Hours, SignOverride } from './hours.js';
import { instantOf } from './instant.js';
import { wallTimeAt } from './local-instant.js';
import { mergeIntervals, periodIntervals, type OpenInterval, type PeriodInterval } from './open-intervals.js';

const DAY = 24 * 60 * 60_000;
/** How far back `since` is looked for, in days. */
export const LOOK_BACK_DAYS = 8;
/** How far ahead `until` and the next change are looked for, in days. */
export const LOOK_AHEAD_DAYS = 14;

/** Whether a shop is open, since and until when, and why: what the open sign shows. */
export type SignState = {
  open: boolean;
  /** When the current state began (ISO 8601 with the shop's offset, e.g. "2026-11-28T08:00:00-08:00"), null when unknown (e.g. no hours at all, or further back than the look-back window of 8 days). */
  since: string | null;
  /** When the current state ends, null when it never does within the look-ahead window (14 days). */
  until: string | null;
  /** The next change: at `until`, to the other state; null when none within the window. */
  nextChange: { at: string; open: boolean } | null;
  /** What decides the state now: the regular hours, a special day, or the manual override. */
  reason: 'regular' | 'special' | 'override' | 'no_hours';
  /** The special day's or the override's note, when that is the reason. */
  note?: string;
  timeZone: string;
};

/**
 * The sign of a shop at `now` in its IANA `timeZone`: open or closed, since and until when (instants in the shop's
 * offset), and what decides it. A manual override decides until its `until` (its `since` is unknown: null); it then
 * lasts until the hours say otherwise (an "open late until 23:00" when the hours also say open at 23:00 lasts until
 * they close). An override already past is ignored, but for `since`: an "open late until 20:00" past leaves the
 * shop closed since 20:00, not since the hours closed. Throws `validation_failed` (field `time_zone`) for an unknown zone.
 */
export function signState(hours: Hours, timeZone: string, now: Date): SignState {
  if (!isTimeZone(timeZone))
    throw invalidInput([{ field: 'time_zone', message: 'time_zone must be an IANA time zone such as Europe/London' }]);
  const zone = IANAZone.create(timeZone);
  const at = now.getTime();
  const from = at - LOOK_BACK_DAYS * DAY;
  const to = at + LOOK_AHEAD_DAYS * DAY;
  const periods = periodIntervals(hours, zone, from, to);
  const schedule = mergeIntervals(periods);
  const bounded = (instant: number | undefined) => (instant !== undefined && instant >= from && instant <= to ? instant : undefined);

  const override = activeOverride(hours.override, at);
  if (override) {
    const open = override.state === 'open';
    const after = stateAt(schedule, override.until);
    const until = after.open === open ? bounded(after.until) : override.until;
    return answer(zone, { open, since: undefined, until, reason: 'override', note: override.note }, timeZone);
  }
  const current = stateAt(schedule, at);
  const since = endedOverride(hours.override, current, at) ?? current.since;
  return answer(
    zone,
    { open: current.open, since: bounded(since), until: bounded(current.until), ...reasonOf(hours, periods, zone, at) },
    timeZone,
  );
}

type Decided = { reason: SignState['reason']; note?: string | undefined };
type Found = Decided & { open: boolean; since: number | undefined; until: number | undefined };

function answer(zone: IANAZone, found: Found, timeZone: string): SignState {
  const iso = (instant: number | undefined) =>
    instant === undefined ? null : DateTime.fromMillis(instant, { zone }).toISO({ suppressMilliseconds: true });
  const until = iso(found.until);
  return {
    open: found.open,
    since: iso(found.since),
    until,
    nextChange: until === null ? null : { at: until, open: !found.open },
    reason: found.reason,
    ...(found.note ? { note: found.note } : {}),
    timeZone,
  };
}

/** The schedule's state at an instant, with the instants the state began and ends (undefined: beyond the intervals known). */
function stateAt(schedule: readonly OpenInterval[], instant: number): { open: boolean; since?: number; until?: number } {
  const index = schedule.findIndex((interval) => interval.end > instant);
  const next = index === -1 ? undefined : schedule[index];
  if (next && next.start <= instant) return { open: true, since: next.start, until: next.end };
  const previous = schedule[(index === -1 ? schedule.length : index) - 1];
  return { open: false, since: previous?.end, until: next?.start };
}

/** A special day's period running now, else today's special day, decides; else the regular hours, if there are any. */
function reasonOf(hours: Hours, periods: readonly PeriodInterval[], zone: IANAZone, at: number): Decided {
  const running = periods.filter((period) => period.start <= at && at < period.end);
  const special = running.length > 0 ? running.find((period) => period.special)?.special : today(hours, zone, at);
  if (special) return { reason: 'special', note: special.note };
  return { reason: running.length > 0 || hours.regular.length > 0 ? 'regular' : 'no_hours' };
}

function today(hours: Hours, zone: IANAZone, at: number) {
  const date = new Date(wallTimeAt(zone, at)).toISOString().slice(0, 10);
  return hours.special.find((day) => day.date === date);
}

/** The `until` of a past override that said the other state and ended within the current state: the state began then. */
function endedOverride(override: SignOverride | undefined, current: ReturnType<typeof stateAt>, at: number): number | undefined {
  const until = override && instantOf(override.until);
  if (!override || until === undefined || until > at || (override.state === 'open') === current.open) return undefined;
  return current.since === undefined || until > current.since ? until : undefined;
}

function activeOverride(override: SignOverride | undefined, at: number) {
  const until = override && instantOf(override.until);
  return override && until !== undefined && at < until ? { ...override, until } : undefined;
}
