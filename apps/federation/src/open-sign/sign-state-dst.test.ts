import { describe, expect, it } from 'vitest';
import type { Hours } from './hours.js';
import { signState } from './sign-state.js';

const NEW_YORK = 'America/New_York';
const LONDON = 'Europe/London';

describe('signState when clocks go forward', () => {
  it('New York, 2026-03-08: 00:00-06:00 on the day lasts five hours, the offset changing inside it', () => {
    const hours: Hours = { regular: [{ day: 'sun', opens: '00:00', closes: '06:00' }], special: [] };
    expect(signState(hours, NEW_YORK, new Date('2026-03-08T01:30:00-05:00'))).toMatchObject({
      open: true,
      since: '2026-03-08T00:00:00-05:00',
      until: '2026-03-08T06:00:00-04:00',
    });
    expect(Date.parse('2026-03-08T06:00:00-04:00') - Date.parse('2026-03-08T00:00:00-05:00')).toBe(5 * 3600_000);
  });

  it('New York, 2026-03-08: an opening at 02:30, a time that does not exist, is at 03:00', () => {
    const hours: Hours = { regular: [{ day: 'sun', opens: '02:30', closes: '12:00' }], special: [] };
    expect(signState(hours, NEW_YORK, new Date('2026-03-08T01:59:00-05:00'))).toMatchObject({
      open: false,
      until: '2026-03-08T03:00:00-04:00',
      nextChange: { at: '2026-03-08T03:00:00-04:00', open: true },
    });
  });

  it('New York: a Saturday night period closing after the change closes at the new offset', () => {
    const hours: Hours = { regular: [{ day: 'sat', opens: '22:00', closes: '04:00' }], special: [] };
    expect(signState(hours, NEW_YORK, new Date('2026-03-08T01:00:00-05:00'))).toMatchObject({
      open: true,
      since: '2026-03-07T22:00:00-05:00',
      until: '2026-03-08T04:00:00-04:00',
    });
  });

  it('London, 2026-03-29: closing at 01:30, skipped, is at 02:00 BST; the next opening in BST', () => {
    const hours: Hours = {
      regular: [
        { day: 'sat', opens: '20:00', closes: '01:30' },
        { day: 'sun', opens: '10:00', closes: '16:00' },
      ],
      special: [],
    };
    expect(signState(hours, LONDON, new Date('2026-03-28T23:00:00Z'))).toMatchObject({
      open: true,
      since: '2026-03-28T20:00:00+00:00',
      until: '2026-03-29T02:00:00+01:00',
      nextChange: { at: '2026-03-29T02:00:00+01:00', open: false },
    });
    expect(signState(hours, LONDON, new Date('2026-03-29T03:00:00Z'))).toMatchObject({
      open: false,
      since: '2026-03-29T02:00:00+01:00',
      until: '2026-03-29T10:00:00+01:00',
    });
  });
});

describe('signState when clocks go back (New York, 2026-11-01)', () => {
  it('00:00-06:00 on the day lasts seven hours', () => {
    const hours: Hours = { regular: [{ day: 'sun', opens: '00:00', closes: '06:00' }], special: [] };
    expect(signState(hours, NEW_YORK, new Date('2026-11-01T06:30:00Z'))).toMatchObject({
      open: true,
      since: '2026-11-01T00:00:00-04:00',
      until: '2026-11-01T06:00:00-05:00',
    });
    expect(Date.parse('2026-11-01T06:00:00-05:00') - Date.parse('2026-11-01T00:00:00-04:00')).toBe(7 * 3600_000);
  });

  it('a closing at 01:30, shown twice, is the first: at the second 01:15 the shop is closed', () => {
    const hours: Hours = {
      regular: [
        { day: 'sat', opens: '20:00', closes: '01:30' },
        { day: 'sun', opens: '11:00', closes: '15:00' },
      ],
      special: [],
    };
    expect(signState(hours, NEW_YORK, new Date('2026-11-01T05:15:00Z'))).toMatchObject({
      open: true,
      since: '2026-10-31T20:00:00-04:00',
      until: '2026-11-01T01:30:00-04:00',
    });
    expect(signState(hours, NEW_YORK, new Date('2026-11-01T06:15:00Z'))).toMatchObject({
      open: false,
      since: '2026-11-01T01:30:00-04:00',
      until: '2026-11-01T11:00:00-05:00',
      nextChange: { at: '2026-11-01T11:00:00-05:00', open: true },
    });
  });
});
