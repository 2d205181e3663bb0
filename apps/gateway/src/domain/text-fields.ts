import { z } from 'zod';

/**
 * A name shown to people (an organisation, a user, a key, a category): one line of printable text.
 * Control characters (a NUL, a bell, a line feed, an escape) have no place in one.
 */
export function nameField(max: number) {
  return z
    .string()
    .trim()
    .min(1)
    .max(max)
    .regex(/^[^\p{Cc}]*$/u, 'must not contain control characters');
}

/** An email address. */
export const emailField = z.string().trim().max(254).pipe(z.email());
