import { cursorPosition, type Org, pageLimit, takePage, validate } from '@ctk/shared';
import { z } from 'zod';
import type { CardContext } from '../cards/card-context.js';
import type { PosCard } from '../data/pos-card-repository.js';

const DEFAULT_LIMIT = 50;
const MAX_LIMIT = 100;

const pageSchema = z.object({
  limit: pageLimit(DEFAULT_LIMIT, MAX_LIMIT),
  cursor: z.string(),
});

/** The shop's POS cards, newest first, a page at a time; nextCursor is empty on the last page. */
export async function listShopCards(
  context: CardContext,
  org: Org,
  input: z.input<typeof pageSchema>,
): Promise<{ cards: PosCard[]; nextCursor: string }> {
  const { limit, cursor } = validate(pageSchema, input);
  const rows = await context.posCards.list(org.id, limit + 1, cursorPosition(cursor));
  const { page, nextCursor } = takePage(rows, limit, (card) => ({ at: card.createdAt, id: card.id }));
  return { cards: page, nextCursor };
}
