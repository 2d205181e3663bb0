import { describe, expect, it } from 'vitest';
import { openingHoursSpecification } from './opening-hours-specification.js';

describe('openingHoursSpecification', () => {
  it('gives one schema.org object per regular period, past midnight keeping opens after closes, the whole day to 23:59:59', () => {
    const regular = [
      { day: 'mon' as const, opens: '08:00', closes: '17:00' },
      { day: 'fri' as const, opens: '22:00', closes: '02:00' },
      { day: 'sat' as const, opens: '00:00', closes: '00:00' },
      { day: 'sun' as const, opens: '12:00', closes: '24:00' },
    ];
    expect(openingHoursSpecification({ regular, special: [] })).toEqual([
      { '@type': 'OpeningHoursSpecification', dayOfWeek: 'https://schema.org/Monday', opens: '08:00:00', closes: '17:00:00' },
      { '@type': 'OpeningHoursSpecification', dayOfWeek: 'https://schema.org/Friday', opens: '22:00:00', closes: '02:00:00' },
      { '@type': 'OpeningHoursSpecification', dayOfWeek: 'https://schema.org/Saturday', opens: '00:00:00', closes: '23:59:59' },
      { '@type': 'OpeningHoursSpecification', dayOfWeek: 'https://schema.org/Sunday', opens: '12:00:00', closes: '23:59:59' },
    ]);
  });

  it('gives a special day each period with validFrom and validThrough, closed all day as 00:00:00-00:00:00, and leaves the override out', () => {
    const special = [
      {
        date: '2026-12-24',
        periods: [
          { opens: '09:00', closes: '12:00' },
          { opens: '14:00', closes: '16:00' },
        ],
        note: 'Christmas Eve',
      },
      { date: '2026-12-25', periods: [], note: 'Christmas' },
      { date: '2026-12-31', periods: [{ opens: '00:00', closes: '24:00' }] },
    ];
    const override = { state: 'closed' as const, until: '2026-12-01T00:00:00Z' };
    const day = (date: string) => ({ '@type': 'OpeningHoursSpecification', validFrom: date, validThrough: date });
    expect(openingHoursSpecification({ regular: [], special, override })).toEqual([
      { ...day('2026-12-24'), opens: '09:00:00', closes: '12:00:00' },
      { ...day('2026-12-24'), opens: '14:00:00', closes: '16:00:00' },
      { ...day('2026-12-25'), opens: '00:00:00', closes: '00:00:00' },
      { ...day('2026-12-31'), opens: '00:00:00', closes: '23:59:59' },
    ]);
  });
});
