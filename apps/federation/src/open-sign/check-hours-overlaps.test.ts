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

describe('checkHours refuses periods of a day that overlap, naming the later', () => {
  it('two periods of a day that overlap', () => {
    expect(
      refusal(
        hoursWith({
          regular: [
            { day: 'mon', opens: '08:00', closes: '12:00' },
            { day: 'mon', opens: '11:00', closes: '14:00' },
          ],
        }),
      ),
    ).toEqual({
      field: 'regular[1].opens',
      message: 'overlaps regular[0] (mon 08:00-12:00)',
    });
    expect(
      refusal(
        hoursWith({
          special: [
            {
              date: '2026-12-24',
              periods: [
                { opens: '09:00', closes: '12:00' },
                { opens: '09:00', closes: '10:00' },
              ],
            },
          ],
        }),
      ),
    ).toEqual({ field: 'special[0].periods[1].opens', message: 'overlaps special[0].periods[0] (2026-12-24 09:00-12:00)' });
  });

  it('a period of the day before running past midnight into the next day’s first, Sunday into Monday', () => {
    expect(
      refusal(
        hoursWith({
          regular: [
            { day: 'mon', opens: '01:00', closes: '05:00' },
            { day: 'sun', opens: '22:00', closes: '02:00' },
          ],
        }),
      ),
    ).toEqual({
      field: 'regular[0].opens',
      message: 'overlaps regular[1] (sun 22:00-02:00), which runs past midnight from sun into mon',
    });
  });

  it('a special day’s period opening before the day before’s period past midnight closes, and one running into the next day', () => {
    const friday = { day: 'fri' as const, opens: '22:00', closes: '02:00' };
    expect(
      refusal(hoursWith({ regular: [friday], special: [{ date: '2026-12-05', periods: [{ opens: '01:00', closes: '05:00' }] }] })),
    ).toEqual({
      field: 'special[0].periods[0].opens',
      message: 'overlaps regular[0] (fri 22:00-02:00), which runs past midnight into 2026-12-05',
    });
    const saturday = { day: 'sat' as const, opens: '02:00', closes: '10:00' };
    expect(
      refusal(hoursWith({ regular: [saturday], special: [{ date: '2026-12-04', periods: [{ opens: '20:00', closes: '03:00' }] }] })),
    ).toEqual({
      field: 'special[0].periods[0].closes',
      message: 'runs past midnight into the opening of regular[0] (sat 02:00-10:00) on 2026-12-05',
    });
  });
});
