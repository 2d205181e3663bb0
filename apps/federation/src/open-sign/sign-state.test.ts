import { describe, expect, it } from 'vitest';
import type { Hours, OpeningPeriod } from './hours.js';
import { signState } from './sign-state.js';

const LA = 'America/Los_Angeles';
const weekdays = (opens: string, closes: string): OpeningPeriod[] =>
  (['mon', 'tue', 'wed', 'thu', 'fri'] as const).map((day) => ({ day, opens, closes }));
const officeHours: Hours = { regular: weekdays('08:00', '17:00'), special: [] };

describe('signState on a normal day (Monday 2026-11-30, Los Angeles, weekdays 08:00-17:00)', () => {
  it('is open inside the hours, since the opening, until the closing', () => {
    expect(signState(officeHours, LA, new Date('2026-11-30T12:00:00-08:00'))).toEqual({
      open: true,
      since: '2026-11-30T08:00:00-08:00',
      until: '2026-11-30T17:00:00-08:00',
      nextChange: { at: '2026-11-30T17:00:00-08:00', open: false },
      reason: 'regular',
      timeZone: LA,
    });
  });

  it('is closed before opening, since Friday evening', () => {
    expect(signState(officeHours, LA, new Date('2026-11-30T07:59:00-08:00'))).toMatchObject({
      open: false,
      since: '2026-11-27T17:00:00-08:00',
      until: '2026-11-30T08:00:00-08:00',
      nextChange: { at: '2026-11-30T08:00:00-08:00', open: true },
    });
  });

  it('is open at the opening minute and closed at the closing minute, until the next morning', () => {
    expect(signState(officeHours, LA, new Date('2026-11-30T08:00:00-08:00')).open).toBe(true);
    expect(signState(officeHours, LA, new Date('2026-11-30T17:00:00-08:00'))).toMatchObject({
      open: false,
      since: '2026-11-30T17:00:00-08:00',
      until: '2026-12-01T08:00:00-08:00',
    });
  });

  it('answers in the shop offset whatever the clock’s own', () => {
    expect(signState(officeHours, LA, new Date('2026-11-30T20:00:00Z')).since).toBe('2026-11-30T08:00:00-08:00');
  });
});

describe('signState across midnight', () => {
  const lateBar: Hours = { regular: [{ day: 'sat', opens: '22:00', closes: '02:00' }], special: [] };

  it('at 01:00 the next day is open since 22:00 the day before, until 02:00', () => {
    expect(signState(lateBar, LA, new Date('2026-11-29T01:00:00-08:00'))).toMatchObject({
      open: true,
      since: '2026-11-28T22:00:00-08:00',
      until: '2026-11-29T02:00:00-08:00',
      nextChange: { at: '2026-11-29T02:00:00-08:00', open: false },
    });
  });

  it('runs from Sunday night into Monday across the end of the week', () => {
    const sundayNight: Hours = { regular: [{ day: 'sun', opens: '22:00', closes: '02:00' }], special: [] };
    expect(signState(sundayNight, LA, new Date('2026-11-30T01:30:00-08:00'))).toMatchObject({
      open: true,
      since: '2026-11-29T22:00:00-08:00',
      until: '2026-11-30T02:00:00-08:00',
    });
    expect(signState(sundayNight, LA, new Date('2026-11-30T03:00:00-08:00'))).toMatchObject({
      open: false,
      since: '2026-11-30T02:00:00-08:00',
      until: '2026-12-06T22:00:00-08:00',
    });
  });

  it('joins a period ending at 24:00 with the next day’s from 00:00, Sunday into Monday', () => {
    const hours: Hours = {
      regular: [
        { day: 'mon', opens: '00:00', closes: '02:00' },
        { day: 'sun', opens: '18:00', closes: '24:00' },
      ],
      special: [],
    };
    expect(signState(hours, LA, new Date('2026-11-29T23:00:00-08:00'))).toMatchObject({
      open: true,
      since: '2026-11-29T18:00:00-08:00',
      until: '2026-11-30T02:00:00-08:00',
    });
  });

  it('is open with no end in the window when open every day all day, and since is unknown', () => {
    const always: Hours = {
      regular: weekdays('00:00', '00:00').concat([
        { day: 'sat', opens: '00:00', closes: '24:00' },
        { day: 'sun', opens: '00:00', closes: '00:00' },
      ]),
      special: [],
    };
    expect(signState(always, LA, new Date('2026-11-30T12:00:00-08:00'))).toMatchObject({
      open: true,
      since: null,
      until: null,
      nextChange: null,
    });
  });
});

describe('signState with no hours', () => {
  it('is closed for no hours, with nothing known', () => {
    expect(signState({ regular: [], special: [] }, LA, new Date('2026-11-30T12:00:00Z'))).toEqual({
      open: false,
      since: null,
      until: null,
      nextChange: null,
      reason: 'no_hours',
      timeZone: LA,
    });
  });

  it('refuses a time zone that is none, naming time_zone', () => {
    expect(() => signState(officeHours, 'Mars/Olympus', new Date('2026-11-30T12:00:00Z'))).toThrow(
      expect.objectContaining({ code: 'validation_failed', details: expect.objectContaining({ field: 'time_zone' }) }),
    );
  });
});

describe('signState in Asia/Tokyo, asked with a UTC clock on another calendar day', () => {
  const tokyo: Hours = { regular: weekdays('09:00', '18:00'), special: [{ date: '2026-12-01', periods: [], note: 'Staff training' }] };

  it('reads the date in Tokyo: Monday 23:30 UTC is Tuesday 08:30 there, a special day closed', () => {
    expect(signState(tokyo, 'Asia/Tokyo', new Date('2026-11-30T23:30:00Z'))).toEqual({
      open: false,
      since: '2026-11-30T18:00:00+09:00',
      until: '2026-12-02T09:00:00+09:00',
      nextChange: { at: '2026-12-02T09:00:00+09:00', open: true },
      reason: 'special',
      note: 'Staff training',
      timeZone: 'Asia/Tokyo',
    });
  });

  it('Sunday 15:30 UTC is Monday 00:30 in Tokyo: closed, opening at 09:00 there', () => {
    expect(signState(tokyo, 'Asia/Tokyo', new Date('2026-11-29T15:30:00Z'))).toMatchObject({
      open: false,
      since: '2026-11-27T18:00:00+09:00',
      until: '2026-11-30T09:00:00+09:00',
      reason: 'regular',
    });
  });
});
