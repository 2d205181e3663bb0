import { describe, expect, it } from 'vitest';
import type { Hours, OpeningPeriod, SignOverride } from './hours.js';
import { signState } from './sign-state.js';

const LA = 'America/Los_Angeles';
const weekdays: OpeningPeriod[] = (['mon', 'tue', 'wed', 'thu', 'fri'] as const).map((day) => ({ day, opens: '08:00', closes: '17:00' }));
const withOverride = (override: SignOverride): Hours => ({ regular: weekdays, special: [], override });

describe('signState with the manual sign (Los Angeles, weekdays 08:00-17:00, Monday 2026-11-30)', () => {
  it('closed now: closed in the hours, until the override ends when the hours say open then', () => {
    const hours = withOverride({ state: 'closed', until: '2026-11-30T13:00:00-08:00', note: 'Back after lunch' });
    expect(signState(hours, LA, new Date('2026-11-30T10:00:00-08:00'))).toEqual({
      open: false,
      since: null,
      until: '2026-11-30T13:00:00-08:00',
      nextChange: { at: '2026-11-30T13:00:00-08:00', open: true },
      reason: 'override',
      note: 'Back after lunch',
      timeZone: LA,
    });
  });

  it('closed now until a time the hours are closed too: until the hours open again', () => {
    const hours = withOverride({ state: 'closed', until: '2026-12-01T02:00:00Z' });
    expect(signState(hours, LA, new Date('2026-11-30T10:00:00-08:00'))).toMatchObject({
      open: false,
      until: '2026-12-01T08:00:00-08:00',
      nextChange: { at: '2026-12-01T08:00:00-08:00', open: true },
      reason: 'override',
    });
  });

  it('open late: open after the hours close, until the override ends', () => {
    const hours = withOverride({ state: 'open', until: '2026-11-30T20:00:00-08:00', note: 'Open late for the fair' });
    expect(signState(hours, LA, new Date('2026-11-30T18:00:00-08:00'))).toEqual({
      open: true,
      since: null,
      until: '2026-11-30T20:00:00-08:00',
      nextChange: { at: '2026-11-30T20:00:00-08:00', open: false },
      reason: 'override',
      note: 'Open late for the fair',
      timeZone: LA,
    });
  });

  it('open until a time the hours say open: until the hours close', () => {
    const hours = withOverride({ state: 'open', until: '2026-12-01T09:00:00-08:00' });
    expect(signState(hours, LA, new Date('2026-11-30T23:00:00-08:00'))).toMatchObject({
      open: true,
      until: '2026-12-01T17:00:00-08:00',
      nextChange: { at: '2026-12-01T17:00:00-08:00', open: false },
      reason: 'override',
    });
  });

  it('once past its until the override is ignored, and the state began when it ended', () => {
    const hours = withOverride({ state: 'open', until: '2026-11-30T20:00:00-08:00', note: 'Open late for the fair' });
    expect(signState(hours, LA, new Date('2026-11-30T20:00:00-08:00'))).toEqual({
      open: false,
      since: '2026-11-30T20:00:00-08:00',
      until: '2026-12-01T08:00:00-08:00',
      nextChange: { at: '2026-12-01T08:00:00-08:00', open: true },
      reason: 'regular',
      timeZone: LA,
    });
    expect(signState(hours, LA, new Date('2026-12-01T12:00:00-08:00'))).toMatchObject({
      open: true,
      since: '2026-12-01T08:00:00-08:00',
      reason: 'regular',
    });
  });

  it('an override that says what the hours say, once past, leaves since to the hours', () => {
    const hours = withOverride({ state: 'closed', until: '2026-11-30T06:00:00-08:00' });
    expect(signState(hours, LA, new Date('2026-11-30T07:00:00-08:00'))).toMatchObject({ open: false, since: '2026-11-27T17:00:00-08:00' });
  });

  it('an override whose until is no instant is ignored', () => {
    const hours = withOverride({ state: 'closed', until: '2026-11-30T23:00:00' });
    expect(signState(hours, LA, new Date('2026-11-30T12:00:00-08:00'))).toMatchObject({ open: true, reason: 'regular' });
  });

  it('decides even for a shop with no hours', () => {
    const hours: Hours = { regular: [], special: [], override: { state: 'open', until: '2026-11-30T22:00:00-08:00' } };
    expect(signState(hours, LA, new Date('2026-11-30T12:00:00-08:00'))).toMatchObject({
      open: true,
      since: null,
      until: '2026-11-30T22:00:00-08:00',
      reason: 'override',
    });
  });
});
