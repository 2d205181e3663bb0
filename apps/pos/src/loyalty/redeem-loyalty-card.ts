import { timingSafeEqual } from 'node:crypto';
import { AppError, type Org } from '@ctk/shared';
import type { CardContext } from '../cards/card-context.js';
import { readCardIdentifier } from '../cards/card-identifier.js';
import { loyaltyCardById, takeStamps, type LoyaltyActivity, type LoyaltyCard } from '../data/loyalty-card-repository.js';
import { getOrgLoyaltyCard, withProgram } from './get-loyalty-card.js';
import type { LoyaltyCardView } from './loyalty-card-view.js';

/**
 * Staff redeem a reward: the customer presents the card's identifier (another card's, or an old one
 * since a transfer, is 404, the answer for an unknown card), and `stamps_for_reward` stamps are taken
 * with one conditional update, so of concurrent redemptions only as many succeed as the stamps pay for;
 * the others are 409 not_enough_stamps. A paused program still honours the stamps given.
 */
export async function redeemLoyaltyCard(
  cards: CardContext,
  org: Org,
  input: { id: string; identifier: string },
): Promise<LoyaltyCardView & { activity: LoyaltyActivity }> {
  const identifier = readCardIdentifier(input.identifier, 'identifier');
  const card = await getOrgLoyaltyCard(cards, org, input.id);
  if (!presented(card, identifier.hash)) throw notThisCard(org);
  const { program } = await withProgram(cards, card);
  const at = cards.orders.now();
  const stamps = program.stampsForReward;
  const taken = await takeStamps(cards.orders.prisma, {
    cardId: card.id,
    organizationId: org.id,
    identifierHash: identifier.hash,
    stamps,
    at,
  });
  if (taken) return { ...taken, program };
  const current = await loyaltyCardById(cards.orders.prisma, card.id);
  if (!current || !presented(current, identifier.hash)) throw notThisCard(org);
  throw new AppError('not_enough_stamps', `The card has ${current.stamps} stamps; a reward (${program.reward}) takes ${stamps}`, {
    stamps: current.stamps,
    stamps_for_reward: stamps,
  });
}

/** Whether the identifier presented is the card's (compared in constant time). */
function presented(card: LoyaltyCard, hash: string): boolean {
  return timingSafeEqual(Buffer.from(card.identifierHash, 'hex'), Buffer.from(hash, 'hex'));
}

function notThisCard(org: Org): AppError {
  return new AppError('not_found', `No such loyalty card in ${org.handle}`);
}
