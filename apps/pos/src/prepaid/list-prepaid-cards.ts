import { cursorPosition, pageLimit, takePage, validate, type Org } from '@ctk/shared';
import { z } from 'zod';
import type { CardContext } from '../cards/card-context.js';
import { listCards, type PrepaidCardRow } from '../data/prepaid-card-repository.js';
import { expireCardOrders } from './expire-card-orders.js';

const pageSchema = z.object({ limit: pageLimit(50, 100), cursor: z.string() });

/**
 * The organisation's prepaid and gift cards (decision 0017), newest first, a page at a time, each with its
 * latest activities, for its staff: never with an identifier (staff see its last 4 characters). Uses on
 * orders that expired meanwhile are restored first, as for the holder's list.
 */
export async function listPrepaidCards(
  cards: CardContext,
  org: Org,
  input: z.input<typeof pageSchema>,
): Promise<{ cards: PrepaidCardRow[]; nextCursor: string }> {
  const { limit, cursor } = validate(pageSchema, input);
  const read = () => listCards(cards.orders.prisma, { organizationId: org.id }, limit + 1, cursorPosition(cursor));
  let rows = await read();
  const restored = await expireCardOrders(
    cards.orders,
    rows.map((card) => card.id),
  );
  if (restored.length > 0) rows = await read();
  const { page, nextCursor } = takePage(rows, limit, (card) => ({ at: card.createdAt, id: card.id }));
  return { cards: page, nextCursor };
}
