import { AppError } from '@ctk/shared';
import type { CardContext } from '../cards/card-context.js';
import { readCardIdentifier } from '../cards/card-identifier.js';
import { cardById, cardByIdentifierHash, type PrepaidCardRow } from '../data/prepaid-card-repository.js';
import { expireCardOrders } from './expire-card-orders.js';
import { cardOfId, noSuchCard } from './prepaid-card-rules.js';

/**
 * A card by its id or by its identifier (a balance check: public, decision 0017), as it is now: uses on
 * orders that expired meanwhile are restored first, so the balance read is the one a use would find. The
 * answer never carries the identifier; the gateway shows the public fields only.
 */
export async function getPrepaidCard(cards: CardContext, input: { id: string; identifier: string }): Promise<PrepaidCardRow> {
  if (Boolean(input.id) === Boolean(input.identifier)) {
    throw new AppError('validation_failed', 'Give exactly one of id and identifier', { field: input.id ? 'identifier' : 'id' });
  }
  const found = input.id ? await cardOfId(cards, input.id) : await cardOfIdentifier(cards, input.identifier);
  await expireCardOrders(cards.orders, [found.id]);
  return (await cardById(cards.orders.sql, found.id, true))!;
}

async function cardOfIdentifier(cards: CardContext, text: string): Promise<PrepaidCardRow> {
  const card = await cardByIdentifierHash(cards.orders.prisma, readCardIdentifier(text, 'identifier').hash);
  if (!card) throw noSuchCard();
  return card;
}
