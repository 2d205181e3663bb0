import { DateTime } from 'luxon';
import type { SignState } from './sign-state.js';

/**
 * What a sign says after "open" or "closed", in the shop's time zone: "until 17:00" today, "opens Tue 08:00" within
 * the week, "opens 12 Dec 08:00" later; "round the clock" when open with no end in sight, "not opening soon" when
 * closed with no opening, "no hours published" when the shop has none. English, and the same for the same input.
 */
export function signDetail(state: SignState, now: Date): string {
  if (state.until === null) return state.open ? 'round the clock' : state.reason === 'no_hours' ? 'no hours published' : 'not opening soon';
  return `${state.open ? 'until' : 'opens'} ${whenFrom(DateTime.fromISO(state.until, { zone: state.timeZone }), now)}`;
}

/** A time as said from `now`: "17:00" on the same local day, "Tue 17:00" within six days, else "12 Dec 17:00". */
function whenFrom(at: DateTime, now: Date): string {
  const today = DateTime.fromJSDate(now, { zone: at.zone }).startOf('day');
  const days = at.startOf('day').diff(today, 'days').days;
  const format = days < 1 ? 'HH:mm' : days < 7 ? 'ccc HH:mm' : 'd LLL HH:mm';
  return at.setLocale('en').toFormat(format);
}
