import { describe, expect, it } from 'vitest';
import { calendarDate } from '../src/calendar-date.js';

describe('calendarDate', () => {
  const schema = calendarDate('from');
  it.each(['0001-01-01', '2024-02-29', '9999-12-31'])('takes %s', (date) => {
    expect(schema.parse(date)).toBe(date);
  });
  it.each(['0000-01-01', '0000-02-29', '2026-02-30', '2025-02-29', '2026-1-01', '+02026-01-01', '2026-01-01T00:00:00Z', ''])(
    'refuses %s, naming the field',
    (date) => {
      const result = schema.safeParse(date);
      expect(result.success).toBe(false);
      expect(result.error?.issues[0]?.message).toMatch(/^from must be a calendar date YYYY-MM-DD/);
    },
  );
});
