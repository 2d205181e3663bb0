import { cursorPosition, takePage } from '@ctk/shared';
import { z } from 'zod';

const LIMIT_RULE = 'limit must be given once, as a whole number from 1 to 100';

/** A page size in a query: digits only (not "1e2" or "0x10"), 1 to 100. */
export const limitField = z
  .string({ error: LIMIT_RULE })
  .regex(/^\d{1,3}$/, LIMIT_RULE)
  .transform(Number)
  .pipe(z.number().min(1, LIMIT_RULE).max(100, LIMIT_RULE));

/** Query of every list: `limit` (1-100, default 50) and the opaque `cursor` of the previous page. */
export const pageQuery = z.object({
  limit: limitField.default(50),
  cursor: z.string().max(200).optional(),
});
export type PageQuery = z.infer<typeof pageQuery>;

/** Prisma arguments of a page of the rows `where` selects: newest first (created_at desc, id desc), after the cursor, one more than the page (for toPage). */
export function newestFirst<W extends object>(page: PageQuery, where: W) {
  const position = cursorPosition(page.cursor);
  const after = position ? { OR: [{ createdAt: { lt: position.at } }, { createdAt: position.at, id: { lt: position.id } }] } : {};
  return { where: { ...where, ...after }, orderBy: [{ createdAt: 'desc' as const }, { id: 'desc' as const }], take: page.limit + 1 };
}

/** Takes `limit + 1` rows fetched newest first and returns the page and the cursor of the next one. */
export function toPage<T extends { createdAt: Date; id: string }, V>(rows: T[], limit: number, view: (row: T) => V) {
  const { page, nextCursor } = takePage(rows, limit, (row) => ({ at: row.createdAt, id: row.id }));
  return { data: page.map(view), next_cursor: nextCursor || null };
}
