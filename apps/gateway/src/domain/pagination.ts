import { AppError } from '@ctk/shared';
import { z } from 'zod';

/** Query of every list: `limit` (1-100, default 50) and the opaque `cursor` of the previous page. */
export const pageQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(50),
  cursor: z.string().max(200).optional(),
});
export type PageQuery = z.infer<typeof pageQuery>;

type Position = { createdAt: Date; id: string };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Prisma `where` for rows after the cursor, newest first (created_at desc, id desc). */
export function afterCursor(cursor: string | undefined) {
  if (!cursor) return {};
  const position = decodeCursor(cursor);
  return {
    OR: [
      { createdAt: { lt: position.createdAt } },
      { createdAt: position.createdAt, id: { lt: position.id } },
    ],
  };
}

export const NEWEST_FIRST = [{ createdAt: 'desc' as const }, { id: 'desc' as const }];

/** Takes `limit + 1` rows fetched newest first and returns the page and the cursor of the next one. */
export function toPage<T extends Position, V>(rows: T[], limit: number, view: (row: T) => V) {
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  const nextCursor = rows.length > limit && last ? encodeCursor(last) : null;
  return { data: page.map(view), next_cursor: nextCursor };
}

function encodeCursor(position: Position): string {
  return Buffer.from(`${position.createdAt.toISOString()}|${position.id}`).toString('base64url');
}

function decodeCursor(cursor: string): Position {
  const [iso, id] = Buffer.from(cursor, 'base64url').toString().split('|');
  const createdAt = new Date(iso ?? '');
  const year = createdAt.getUTCFullYear();
  if (!id || Number.isNaN(createdAt.getTime()) || year < 2000 || year > 9999 || !UUID.test(id)) {
    throw new AppError('validation_failed', 'The cursor is not valid: pass next_cursor from the previous page unchanged.', { field: 'cursor' });
  }
  return { createdAt, id };
}
