import { AppError, type Org } from '@ctk/shared';
import { z } from 'zod';
import type { CardContext } from '../cards/card-context.js';
import { readCardIdentifier } from '../cards/card-identifier.js';
import { loyaltyCardById, loyaltyCardByIdentifier, type LoyaltyCard } from '../data/loyalty-card-repository.js';
import { findLoyaltyProgram } from '../data/loyalty-program-repository.js';
import type { LoyaltyCardView } from './loyalty-card-view.js';

const cardId = z.guid();

/**
 * A card by its id or by the identifier a customer presented (public: the gateway shows its public
 * fields only). Unknown, or an id that is no id, is not found; an identifier that cannot be one is a 422.
 */
export async function getLoyaltyCard(cards: CardContext, input: { id: string; identifier: string }): Promise<LoyaltyCardView> {
  if (Boolean(input.id) === Boolean(input.identifier)) {
    throw new AppError('validation_failed', 'Give the card id or its identifier, one of them', { field: 'id' });
  }
  const card = input.identifier
    ? await loyaltyCardByIdentifier(cards.orders.prisma, readCardIdentifier(input.identifier, 'identifier').hash)
    : await cardOfId(cards, input.id);
  if (!card) throw new AppError('not_found', 'No such loyalty card');
  return withProgram(cards, card);
}

/** The organisation's card: another organisation's is not found, as if it did not exist. */
export async function getOrgLoyaltyCard(cards: CardContext, org: Org, id: string): Promise<LoyaltyCard> {
  const card = await cardOfId(cards, id);
  if (!card || card.organizationId !== org.id) throw new AppError('not_found', `No such loyalty card in ${org.handle}`);
  return card;
}

/** The card with its organisation's program (every card has one: a card is made only under a program). */
export async function withProgram(cards: CardContext, card: LoyaltyCard): Promise<LoyaltyCardView> {
  const program = await findLoyaltyProgram(cards.orders.prisma, card.organizationId);
  if (!program) throw new AppError('internal', `Loyalty card ${card.id} has no program`);
  return { card, program };
}

function cardOfId(cards: CardContext, id: string): Promise<LoyaltyCard | null> {
  return cardId.safeParse(id).success ? loyaltyCardById(cards.orders.prisma, id) : Promise.resolve(null);
}
