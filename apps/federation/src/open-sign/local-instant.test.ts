import { IANAZone } from 'luxon';
import { describe, expect, it } from 'vitest';
import { localInstant } from './local-instant.js';

const at = (zone: string, wall: number) => new Date(localInstant(IANAZone.create(zone), wall)).toISOString();

describe('localInstant', () => {
  it('reads an ordinary local time with the offset then', () => {
    expect(at('Asia/Tokyo', Date.UTC(2026, 11, 1, 9, 0))).toBe('2026-12-01T00:00:00.000Z');
  });

  it('takes the end of the jump for a time skipped: Lord Howe’s half-hour change, and Samoa’s skipped day', () => {
    // Lord Howe Island goes from +10:30 to +11:00 at 02:00 on 2026-10-04.
    expect(at('Australia/Lord_Howe', Date.UTC(2026, 9, 4, 2, 15))).toBe('2026-10-03T15:30:00.000Z');
    // Samoa went from 29 December 2011 straight to 31 December.
    expect(at('Pacific/Apia', Date.UTC(2011, 11, 30, 12, 0))).toBe('2011-12-30T10:00:00.000Z');
  });

  it('takes the first of a time shown twice', () => {
    expect(at('Europe/London', Date.UTC(2026, 9, 25, 1, 30))).toBe('2026-10-25T00:30:00.000Z');
  });
});
