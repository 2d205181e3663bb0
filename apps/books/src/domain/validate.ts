import { AppError } from '@ctk/shared';
import type { z } from 'zod';

/** Parses input or throws validation_failed naming the first bad field as the API spells it. */
export function validate<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const field = issue?.path.map((key) => String(key).replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)).join('.');
  throw new AppError('validation_failed', issue?.message ?? 'The request is not valid', { field });
}
