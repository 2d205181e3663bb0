import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AppError, refuseNulCharacters, validate } from '../src/index.js';

function refusal(run: () => unknown): AppError {
  try {
    run();
  } catch (error) {
    if (AppError.is(error)) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('validate', () => {
  it('lists the first 20 issues and counts the rest', () => {
    const input = Object.fromEntries(Array.from({ length: 2000 }, (_, i) => [`field_${i}`, i]));
    const error = refusal(() => validate(z.object({}).strict(), input, 'body'));
    expect(error.code).toBe('validation_failed');
    expect(error.details?.issues).toHaveLength(20);
    expect(error.details?.more_issues).toBe(1980);
    expect(error.message.length).toBeLessThan(1500);
  });
});

describe('refuseNulCharacters', () => {
  it('names every string and key holding a NUL, nested in objects and arrays', () => {
    const error = refusal(() =>
      refuseNulCharacters({ name: 'a\u0000', lines: [{ note: 'ok' }, { note: '\u0000' }], 'k\u0000': 1 }, 'body'),
    );
    expect((error.details?.issues as Array<{ field: string }>).map((i) => i.field).sort()).toEqual(['k\u0000', 'lines.1.note', 'name']);
  });

  it('names the part itself for a bare string, and accepts text without a NUL', () => {
    expect(refusal(() => refuseNulCharacters('\u0000', 'query')).details?.field).toBe('query');
    expect(() => refuseNulCharacters({ name: 'tab\tand\nline', n: 1, none: null }, 'body')).not.toThrow();
  });

  it('walks a deeply nested body without exhausting the stack', () => {
    let deep: unknown = 'x\u0000';
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(refusal(() => refuseNulCharacters(deep, 'body')).code).toBe('validation_failed');
  });
});
