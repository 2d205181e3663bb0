import { cursorPosition, type Org, takePage, validate } from '@ctk/shared';
import { z } from 'zod';
import type { CardContext } from '../cards/card-context.js';
import type { PosCard } from '../data/pos-card-repository.js';

const DEFAULT_LIMIT = 50;
const MAX_LIMIT = 100;

const pageSchema = z.object({
  // proto3 sends 0 for "not set"
  limit: z
    .number()
    .int()
    .transform((limit) => limit || DEFAULT_LIMIT)
    .pipe(z.number().min(1, `limit must be between 1 and ${MAX_LIMIT}`).max(MAX_LIMIT, `limit must be between 1 and ${MAX_LIMIT}`)),
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
