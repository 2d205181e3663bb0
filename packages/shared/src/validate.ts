import type { z } from 'zod';
import { AppError } from './errors.js';

export type InputIssue = { field: string; message: string };

/** An error lists this many issues and counts the rest: thousands of unknown fields must not make a megabyte answer. */
export const MAX_LISTED_ISSUES = 20;

/**
 * Parses input or throws `validation_failed` naming every bad field as the API spells it (snake_case):
 * unknown keys one by one, and for a union the branch that came closest. `details.field` is the first.
 */
export function validate<S extends z.ZodType>(schema: S, input: unknown, where = 'input'): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  throw invalidInput(namedIssues(result.error.issues, where), where);
}

/**
 * The one `validation_failed` error: the first {@link MAX_LISTED_ISSUES} issues in the message and in
 * `details.issues`, and `details.more_issues` counting the rest (`unlisted` are issues found but not spelled out).
 */
export function invalidInput(issues: InputIssue[], where = 'input', unlisted = 0): AppError {
  const listed = issues.slice(0, MAX_LISTED_ISSUES);
  const more = issues.length - listed.length + unlisted;
  const summary = listed.map((i) => `${i.field}: ${i.message}`).join('; ') + (more > 0 ? `; and ${more} more` : '');
  return new AppError('validation_failed', `Invalid ${where}: ${summary}`, {
    field: listed[0]?.field,
    issues: listed,
    ...(more > 0 ? { more_issues: more } : {}),
  });
}

/**
 * Throws `validation_failed` naming every string (or key) of the input that holds a NUL character:
 * no text of this API has a use for one, and PostgreSQL cannot store it. Runs before the schema, so
 * a NUL anywhere (even in a field the schema would refuse as unknown) is a 422 rather than a 500.
 */
export function refuseNulCharacters(input: unknown, where = 'input'): void {
  const issues: InputIssue[] = [];
  let unlisted = 0;
  // Only listed issues get their path spelled out: the rest are counted.
  const found = (step: Step, message: string) => {
    if (issues.length < MAX_LISTED_ISSUES) issues.push({ field: pathOf(step) || where, message });
    else unlisted++;
  };
  // Iterative, each entry pointing at its parent: a deeply nested body costs neither the stack nor a copied path per level.
  const pending: Step[] = [{ value: input, key: '', parent: null }];
  for (let step = pending.pop(); step; step = pending.pop()) {
    const { value } = step;
    if (typeof value === 'string') {
      if (value.includes('\u0000')) found(step, 'must not contain a NUL character');
    } else if (typeof value === 'object' && value !== null) {
      for (const [key, inner] of Object.entries(value)) {
        const child = { value: inner, key, parent: step };
        if (key.includes('\u0000')) found(child, 'a field name must not contain a NUL character');
        else pending.push(child);
      }
    }
  }
  if (issues.length > 0) throw invalidInput(issues, where, unlisted);
}

type Step = { value: unknown; key: string; parent: Step | null };

function pathOf(step: Step): string {
  const keys: string[] = [];
  for (let at: Step | null = step; at?.parent; at = at.parent) keys.push(clip(at.key));
  const path = keys.reverse().join('.');
  return path.length > 200 ? `${path.slice(0, 200)}…` : path;
}

function namedIssues(issues: readonly z.core.$ZodIssue[], where: string): InputIssue[] {
  return issues.flatMap((issue) => {
    const path = issue.path.map((key) => String(key).replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`));
    if (issue.code === 'unrecognized_keys')
      return issue.keys.map((key) => ({ field: [...path, clip(key)].join('.'), message: `Unknown field "${clip(key)}"` }));
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

/** A field name as an error shows it: no real field is this long, and a megabyte key must not be echoed whole. */
function clip(key: string): string {
  return key.length > 100 ? `${key.slice(0, 100)}…` : key;
}
