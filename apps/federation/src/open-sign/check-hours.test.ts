import { AppError } from '@ctk/shared';
import { describe, expect, it } from 'vitest';
import { checkHours } from './check-hours.js';
import type { Hours } from './hours.js';

const NOW = new Date('2026-11-30T12:00:00Z');
const hoursWith = (change: Partial<Hours>): Hours => ({
  regular: [{ day: 'mon', opens: '08:00', closes: '17:00' }],
  special: [],
  ...change,
});

/** The field and message of the first issue checkHours refuses the hours for. */
function refusal(hours: Hours): { field: unknown; message: string } {
  try {
    checkHours(hours, NOW);
  } catch (error) {
    if (!(error instanceof AppError) || error.code !== 'validation_failed') throw error;
    const [issue] = error.details?.issues as { field: string; message: string }[];
    return { field: error.details?.field, message: issue?.message ?? '' };
  }
  throw new Error('the hours were accepted');
}

describe('checkHours accepts', () => {
  it('hours as a normalised copy: sorted, notes trimmed, special days long past dropped', () => {
    const hours: Hours = {
      regular: [
        { day: 'tue', opens: '08:00', closes: '12:00' },
        { day: 'mon', opens: '13:00', closes: '24:00' },
        { day: 'sun', opens: '22:00', closes: '02:00' },
        { day: 'mon', opens: '02:00', closes: '12:00' },
      ],
      special: [
        { date: '2026-12-25', periods: [], note: '  Christmas  ' },
        { date: '2026-11-19', periods: [] },
        { date: '2026-11-18', periods: [] },
        {
          date: '2026-12-24',
          periods: [
            { opens: '14:00', closes: '16:00' },
            { opens: '09:00', closes: '12:00' },
          ],
          note: ' ',
        },
      ],
      override: { state: 'closed', until: '2026-12-07T11:59:00Z', note: 'Away' },
    };
    expect(checkHours(hours, NOW)).toEqual({
      regular: [
        { day: 'mon', opens: '02:00', closes: '12:00' },
        { day: 'mon', opens: '13:00', closes: '24:00' },
        { day: 'tue', opens: '08:00', closes: '12:00' },
        { day: 'sun', opens: '22:00', closes: '02:00' },
      ],
      special: [
        { date: '2026-11-19', periods: [] },
        {
          date: '2026-12-24',
          periods: [
            { opens: '09:00', closes: '12:00' },
            { opens: '14:00', closes: '16:00' },
          ],
        },
        { date: '2026-12-25', periods: [], note: 'Christmas' },
      ],
      override: { state: 'closed', until: '2026-12-07T11:59:00Z', note: 'Away' },
    });
  });

  it('the whole day written either way, and periods that only touch', () => {
    const hours = hoursWith({
      regular: [
        { day: 'mon', opens: '00:00', closes: '00:00' },
        { day: 'tue', opens: '00:00', closes: '24:00' },
        { day: 'wed', opens: '08:00', closes: '12:00' },
        { day: 'wed', opens: '12:00', closes: '08:00' },
      ],
    });
    expect(checkHours(hours, NOW).regular).toHaveLength(4);
  });
});

describe('checkHours refuses, naming the field', () => {
  it('a time that is none', () => {
    expect(
      refusal(
        hoursWith({
          regular: [
            { day: 'mon', opens: '08:00', closes: '17:00' },
            { day: 'tue', opens: '8:00', closes: '17:00' },
          ],
        }),
      ),
    ).toEqual({ field: 'regular[1].opens', message: 'opens must be a time HH:MM from 00:00 to 23:59' });
    expect(refusal(hoursWith({ regular: [{ day: 'mon', opens: '24:00', closes: '02:00' }] })).field).toBe('regular[0].opens');
    expect(refusal(hoursWith({ regular: [{ day: 'mon', opens: '08:00', closes: '24:30' }] })).field).toBe('regular[0].closes');
    expect(refusal(hoursWith({ special: [{ date: '2026-12-24', periods: [{ opens: '09:00', closes: '12:60' }] }] })).field).toBe(
      'special[0].periods[0].closes',
    );
  });

  it('a day that is none', () => {
    expect(refusal(hoursWith({ regular: [{ day: 'Monday' as 'mon', opens: '08:00', closes: '17:00' }] })).field).toBe('regular[0].day');
  });

  it('a special date twice, or one that is no date', () => {
    const christmas = { date: '2026-12-25', periods: [] };
    expect(refusal(hoursWith({ special: [christmas, { date: '2026-12-31', periods: [] }, christmas] }))).toEqual({
      field: 'special[2].date',
      message: '2026-12-25 is already special[0]: a date is special once',
    });
    expect(refusal(hoursWith({ special: [{ date: '2026-02-30', periods: [] }] })).field).toBe('special[0].date');
  });

  it('an override ending in the past, more than 7 days ahead, or without an offset', () => {
    const until = (text: string) => refusal(hoursWith({ override: { state: 'closed', until: text } }));
    expect(until('2026-11-30T11:59:59Z')).toEqual({ field: 'override.until', message: 'until must be in the future' });
    expect(until('2026-12-08T12:00:00Z')).toEqual({ field: 'override.until', message: 'until must be at most 7 days ahead' });
    expect(until('2026-12-01T12:00:00').field).toBe('override.until');
    expect(checkHours(hoursWith({ override: { state: 'closed', until: '2026-12-07T12:00:00Z' } }), NOW).override?.until).toBe(
      '2026-12-07T12:00:00Z',
    );
  });

  it('a note with a NUL or another control character, or longer than 140 characters', () => {
    expect(refusal(hoursWith({ special: [{ date: '2026-12-25', periods: [], note: 'Closed\u0000' }] }))).toEqual({
      field: 'special[0].note',
      message: 'note must not contain control characters',
    });
    expect(refusal(hoursWith({ override: { state: 'open', until: '2026-12-01T00:00:00Z', note: 'Open\u001b[31m late' } })).field).toBe(
      'override.note',
    );
    expect(refusal(hoursWith({ override: { state: 'open', until: '2026-12-01T00:00:00Z', note: 'x'.repeat(141) } })).message).toBe(
      'note must be at most 140 characters',
    );
  });

  it('more periods or special days than allowed', () => {
    const regular = Array.from({ length: 51 }, (_, i) => ({
      day: 'mon' as const,
      opens: `${String(Math.floor(i / 3)).padStart(2, '0')}:${String((i % 3) * 20).padStart(2, '0')}`,
      closes: '23:59',
    }));
    expect(refusal(hoursWith({ regular })).field).toBe('regular');
    const periods = Array.from({ length: 11 }, (_, i) => ({
      opens: `${String(i).padStart(2, '0')}:00`,
      closes: `${String(i).padStart(2, '0')}:30`,
    }));
    expect(refusal(hoursWith({ special: [{ date: '2026-12-24', periods }] })).field).toBe('special[0].periods');
  });
});
