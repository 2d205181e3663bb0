import { AppError, cursorPosition, pageLimit, takePage, validate } from '@ctk/shared';
import { z } from 'zod';
import type { CardContext } from '../cards/card-context.js';
import { openIdentifier } from '../cards/card-identifier.js';
import { ledgersOf, loyaltyCardsHeldByUser } from '../data/loyalty-card-repository.js';
import { loyaltyProgramsOf } from '../data/loyalty-program-repository.js';
import type { LoyaltyCardView } from './loyalty-card-view.js';

const DEFAULT_LIMIT = 50;
const MAX_LIMIT = 100;

const requestSchema = z.object({
  userId: z.guid('user_id must be a user id (a UUID)'),
  limit: pageLimit(DEFAULT_LIMIT, MAX_LIMIT),
  cursor: z.string(),
});

/**
 * The caller's own cards at every organisation, newest first, a page at a time: for the holder, so each
 * with its identifier opened from the sealed copy (what they show at the counter) and its latest ledger.
 */
export async function listHeldLoyaltyCards(
  cards: CardContext,
  input: z.input<typeof requestSchema>,
): Promise<{ cards: LoyaltyCardView[]; nextCursor: string }> {
  const { userId, limit, cursor } = validate(requestSchema, input);
  const rows = await loyaltyCardsHeldByUser(cards.orders.prisma, userId, limit + 1, cursorPosition(cursor));
  const { page, nextCursor } = takePage(rows, limit, (card) => ({ at: card.createdAt, id: card.id }));
  const programs = await loyaltyProgramsOf(
    cards.orders.prisma,
    page.map((card) => card.organizationId),
  );
  const ledgers = await ledgersOf(
    cards.orders.prisma,
    page.map((card) => card.id),
  );
  const key = await cards.cardKey();
  const views = page.map((card) => {
    const program = programs.get(card.organizationId);
    if (!program) throw new AppError('internal', `Loyalty card ${card.id} has no program`);
    const identifier = openIdentifier(key, card.id, card.identifierSealed);
    // Sealed under another key (POS_CARD_KEY changed): the holder sees the last 4 only until staff re-key the card.
    if (identifier === undefined)
      cards.orders.logger.warn({ cardId: card.id }, 'a loyalty card identifier does not open under the card key');
    return { card, program, identifier, activities: ledgers.get(card.id) ?? [] };
  });
  return { cards: views, nextCursor };
}
