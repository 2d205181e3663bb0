import { cursorPosition, type Org, pageLimit, takePage, validate } from '@ctk/shared';
import { z } from 'zod';
import type { PayLinkWithUses } from '../data/pay-link-repository.js';
import type { PayLinkContext } from '../pay-links/pay-link-context.js';

const DEFAULT_LIMIT = 50;
const MAX_LIMIT = 100;

const pageSchema = z.object({
  limit: pageLimit(DEFAULT_LIMIT, MAX_LIMIT),
  cursor: z.string(),
});

/** The organisation's pay links, newest first, a page at a time; nextCursor is empty on the last page. */
export async function listPayLinks(
  context: PayLinkContext,
  org: Org,
  input: z.input<typeof pageSchema>,
): Promise<{ links: PayLinkWithUses[]; nextCursor: string }> {
  const { limit, cursor } = validate(pageSchema, input);
  const rows = await context.links.list(org.id, limit + 1, context.orders.now(), cursorPosition(cursor));
  const { page, nextCursor } = takePage(rows, limit, (link) => ({ at: link.createdAt, id: link.id }));
  return { links: page, nextCursor };
}
