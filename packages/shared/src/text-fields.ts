import { z } from 'zod';

// The embedding, override and isolate controls of bidirectional text (U+202A-U+202E, U+2066-U+2069) make
// text display in another order than it is written (a name shown as something else); right-to-left names
// need none of them. Refused with the C0 and C1 control characters.
const CONTROL_CHARACTER = /[\p{Cc}\u202a-\u202e\u2066-\u2069]/u;
// Free text may break lines and indent; no other control character (a NUL, a bell, an escape) has a use in it.
const CONTROL_CHARACTER_BUT_LINE_BREAK_OR_TAB = /[^\P{Cc}\t\n\r]|[\u202a-\u202e\u2066-\u2069]/u;

/**
 * One line of text shown to people (a name, a category, a group): trimmed, at most `max` characters,
 * without control characters (nor bidirectional overrides). Empty is allowed here; a required field adds its own `.min(1)`.
 */
export function lineOfText(field: string, max: number) {
  return z
    .string()
    .trim()
    .max(max, `${field} must be at most ${max} characters`)
    .refine((text) => !CONTROL_CHARACTER.test(text), `${field} must not contain control characters`);
}

/** Text of several lines (a description): line breaks and tabs, but no other control character. */
export function freeText(field: string, max: number) {
  return z
    .string()
    .max(max, `${field} must be at most ${max} characters`)
    .refine(
      (text) => !CONTROL_CHARACTER_BUT_LINE_BREAK_OR_TAB.test(text),
      `${field} must not contain control characters other than line breaks and tabs`,
    );
}
