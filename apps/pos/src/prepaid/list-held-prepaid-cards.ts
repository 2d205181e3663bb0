import { cursorPosition, pageLimit, takePage, validate } from '@ctk/shared';
import { z } from 'zod';
import type { CardContext } from '../cards/card-context.js';
import { openIdentifier } from '../cards/card-identifier.js';
import { listCards, type PrepaidCardRow } from '../data/prepaid-card-repository.js';
import { expireCardOrders } from './expire-card-orders.js';

const DEFAULT_LIMIT = 50;
const MAX_LIMIT = 100;

const heldSchema = z.object({
  userId: z.guid('user_id must be a user id (a UUID)'),
  limit: pageLimit(DEFAULT_LIMIT, MAX_LIMIT),
  cursor: z.string(),
});

export type HeldCard = { card: PrepaidCardRow; identifier: string };

/**
 * The cards a user holds (holder.user_id; decision 0017), newest first, a page at a time, each with its
 * identifier opened from the sealed copy (what the holder shows at the counter) and its latest activities.
 * Uses on orders that expired meanwhile are restored first.
 */
export async function listHeldPrepaidCards(
  cards: CardContext,
  input: z.input<typeof heldSchema>,
): Promise<{ cards: HeldCard[]; nextCursor: string }> {
  const { userId, limit, cursor } = validate(heldSchema, input);
  const after = cursorPosition(cursor);
  const read = () => listCards(cards.orders.prisma, { holderUserId: userId }, limit + 1, after);
  let rows = await read();
  const restored = await expireCardOrders(
    cards.orders,
    rows.map((card) => card.id),
  );
  if (restored.length > 0) rows = await read();
  const { page, nextCursor } = takePage(rows, limit, (card) => ({ at: card.createdAt, id: card.id }));
  const key = await cards.cardKey();
  return {
    cards: page.map((card) => {
      const identifier = openIdentifier(key, card.id, card.identifierSealed);
      // Sealed under another key (POS_CARD_KEY changed) or copied from another row: the card is listed without it.
      if (identifier === undefined) cards.orders.logger.warn({ cardId: card.id }, 'a prepaid card identifier could not be opened');
      return { card, identifier: identifier ?? '' };
    }),
    nextCursor,
  };
}
