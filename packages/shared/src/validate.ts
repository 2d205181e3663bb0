import type { z } from 'zod';
import { AppError } from './errors.js';

export type InputIssue = { field: string; message: string };

/**
 * Parses input or throws `validation_failed` naming every bad field as the API spells it (snake_case):
 * unknown keys one by one, and for a union the branch that came closest. `details.field` is the first.
 */
export function validate<S extends z.ZodType>(schema: S, input: unknown, where = 'input'): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const issues = namedIssues(result.error.issues, where);
  const summary = issues.map((i) => `${i.field}: ${i.message}`).join('; ');
  throw new AppError('validation_failed', `Invalid ${where}: ${summary}`, { field: issues[0]?.field, issues });
}

function namedIssues(issues: readonly z.core.$ZodIssue[], where: string): InputIssue[] {
  return issues.flatMap((issue) => {
    const path = issue.path.map((key) => String(key).replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`));
    if (issue.code === 'unrecognized_keys')
      return issue.keys.map((key) => ({ field: [...path, key].join('.'), message: `Unknown field "${key}"` }));
    if (issue.code === 'invalid_union' && issue.errors.length > 0) {
      const closest = issue.errors.reduce((best, branch) => (branch.length < best.length ? branch : best));
      return namedIssues(
        closest.map((inner) => ({ ...inner, path: [...issue.path, ...inner.path] })),
        where,
      );
    }
    return [{ field: path.join('.') || where, message: issue.message }];
  });
}
