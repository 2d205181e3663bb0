import { describe, expect, it } from 'vitest';
import type { Hours, OpeningPeriod } from './hours.js';
import { signState } from './sign-state.js';

const LA = 'America/Los_Angeles';
const weekdays = (opens: string, closes: string): OpeningPeriod[] =>
  (['mon', 'tue', 'wed', 'thu', 'fri'] as const).map((day) => ({ day, opens, closes }));

describe('signState on special days (Los Angeles, weekdays 08:00-17:00)', () => {
  const christmas: Hours = {
    regular: weekdays('08:00', '17:00'),
    special: [
      { date: '2026-12-24', periods: [{ opens: '10:00', closes: '14:00' }], note: 'Christmas Eve: short day' },
      { date: '2026-12-25', periods: [], note: 'Closed for Christmas' },
    ],
  };

  it('a special day that closes the shop says so, with its note, until the next regular opening', () => {
    expect(signState(christmas, LA, new Date('2026-12-25T12:00:00-08:00'))).toEqual({
      open: false,
      since: '2026-12-24T14:00:00-08:00',
      until: '2026-12-28T08:00:00-08:00',
      nextChange: { at: '2026-12-28T08:00:00-08:00', open: true },
      reason: 'special',
      note: 'Closed for Christmas',
      timeZone: LA,
    });
  });

  it('a special day with other hours is open in them, not in the regular ones', () => {
    expect(signState(christmas, LA, new Date('2026-12-24T09:00:00-08:00'))).toMatchObject({
      open: false,
      since: '2026-12-23T17:00:00-08:00',
      until: '2026-12-24T10:00:00-08:00',
      reason: 'special',
      note: 'Christmas Eve: short day',
    });
    expect(signState(christmas, LA, new Date('2026-12-24T12:00:00-08:00'))).toEqual({
      open: true,
      since: '2026-12-24T10:00:00-08:00',
      until: '2026-12-24T14:00:00-08:00',
      nextChange: { at: '2026-12-24T14:00:00-08:00', open: false },
      reason: 'special',
      note: 'Christmas Eve: short day',
      timeZone: LA,
    });
  });

  it('the day before a special day, the regular hours decide and know it closes early next', () => {
    expect(signState(christmas, LA, new Date('2026-12-23T18:00:00-08:00'))).toMatchObject({
      open: false,
      since: '2026-12-23T17:00:00-08:00',
      until: '2026-12-24T10:00:00-08:00',
      reason: 'regular',
    });
  });

  it('a special day after a period past midnight: the spill still runs, then the special day decides', () => {
    const hours: Hours = {
      regular: [{ day: 'fri', opens: '22:00', closes: '02:00' }],
      special: [{ date: '2026-11-28', periods: [], note: 'Stocktaking' }],
    };
    expect(signState(hours, LA, new Date('2026-11-28T01:00:00-08:00'))).toEqual({
      open: true,
      since: '2026-11-27T22:00:00-08:00',
      until: '2026-11-28T02:00:00-08:00',
      nextChange: { at: '2026-11-28T02:00:00-08:00', open: false },
      reason: 'regular',
      timeZone: LA,
    });
    expect(signState(hours, LA, new Date('2026-11-28T12:00:00-08:00'))).toMatchObject({
      open: false,
      since: '2026-11-28T02:00:00-08:00',
      until: '2026-12-04T22:00:00-08:00',
      reason: 'special',
      note: 'Stocktaking',
    });
  });

  it('a special day opening a shop with no regular hours; otherwise the reason is no hours', () => {
    const popUp: Hours = { regular: [], special: [{ date: '2026-12-05', periods: [{ opens: '10:00', closes: '16:00' }] }] };
    expect(signState(popUp, LA, new Date('2026-12-01T12:00:00-08:00'))).toMatchObject({
      open: false,
      since: null,
      until: '2026-12-05T10:00:00-08:00',
      reason: 'no_hours',
    });
    expect(signState(popUp, LA, new Date('2026-12-05T11:00:00-08:00'))).toMatchObject({
      open: true,
      since: '2026-12-05T10:00:00-08:00',
      until: '2026-12-05T16:00:00-08:00',
      reason: 'special',
    });
  });
});
