import { z } from 'zod';
import { AppError } from './errors.js';

/** Where a list stands: the time and id of the last row seen (rows are ordered by time, then id). */
export type CursorPosition = { at: Date; id: string };

const positionSchema = z.tuple([z.iso.datetime(), z.guid()]);

/** Opaque to callers: base64url of the last row's time and id; the next page starts after it. */
export function encodeCursor(position: CursorPosition): string {
  return Buffer.from(JSON.stringify([position.at.toISOString(), position.id])).toString('base64url');
}

/** The position in a cursor this service issued, or undefined for anything else. */
export function decodeCursor(cursor: string): CursorPosition | undefined {
  let json: unknown;
  try {
    json = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  const parsed = positionSchema.safeParse(json);
  return parsed.success ? { at: new Date(parsed.data[0]), id: parsed.data[1] } : undefined;
}

/** The position a request's cursor names (none without one); a cursor not issued here is a 422. */
export function cursorPosition(cursor: string | undefined): CursorPosition | undefined {
  if (!cursor) return undefined;
  const position = decodeCursor(cursor);
  if (!position) {
    throw new AppError(
      'validation_failed',
      'The cursor is not one this service issued: pass next_cursor from the previous page unchanged.',
      { field: 'cursor' },
    );
  }
  return position;
}

/** A page from `limit + 1` rows fetched in order, and the cursor of the next page ('' on the last). */
export function takePage<T>(rows: T[], limit: number, positionOf: (row: T) => CursorPosition): { page: T[]; nextCursor: string } {
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return { page, nextCursor: rows.length > limit && last ? encodeCursor(positionOf(last)) : '' };
}

/**
 * A list request's `limit` (proto3 sends 0 for "not set": `fallback` then; otherwise 1 to `max`) as a
 * zod field, the one rule every list of every service checks its page size with.
 */
export function pageLimit(fallback: number, max: number) {
  return z
    .number()
    .int()
    .transform((limit) => limit || fallback)
    .pipe(z.number().min(1, `limit must be between 1 and ${max}`).max(max, `limit must be between 1 and ${max}`));
}
