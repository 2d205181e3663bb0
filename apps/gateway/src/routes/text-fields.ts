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

/**
 * An email address, as stored: trimmed and in lower case, so Ann@x.com and ann@x.com are one address
 * (decision 0011).
 */
export const emailField = z
  .string()
  .trim()
  .max(254)
  .pipe(z.email())
  .transform((email) => email.toLowerCase());

/**
 * A query parameter that is given has a value: proto3 has no absent string, so an empty one would reach
 * the service as "not given" (an open end of a range, today, UTC). The service checks what the value says.
 */
export const queryValue = z.string().min(1, 'must have a value: leave the parameter out instead');
