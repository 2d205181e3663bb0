import type { CardHolder } from '@ctk/proto/ctk/pos/v1/cards';
import { AppError, isUniqueViolation, type Org } from '@ctk/shared';
import type { CardContext } from '../cards/card-context.js';
import { readCardHolder } from '../cards/card-holder.js';
import { newCardIdentifier, sealIdentifier } from '../cards/card-identifier.js';
import { rekeyCard } from '../data/loyalty-card-repository.js';
import { refuseSecondCard } from './create-loyalty-card.js';
import { getOrgLoyaltyCard, withProgram } from './get-loyalty-card.js';
import type { LoyaltyCardView } from './loyalty-card-view.js';

/**
 * Staff pass the organisation's card on (`to`: the new holder's address or public key; the user it was
 * held by no longer holds it) or re-key a lost one (no `to`: the holder stays). Either way the card gets
 * a new identifier, answered this once; the old one stops working. Its stamps stay with it.
 */
export async function transferLoyaltyCard(
  cards: CardContext,
  org: Org,
  input: { id: string; to?: CardHolder | undefined },
): Promise<LoyaltyCardView> {
  if (input.to && !input.to.address && !input.to.publicKey) {
    throw new AppError('validation_failed', 'name the new holder by to.address or to.public_key, or leave "to" out to re-key only', {
      field: 'to',
    });
  }
  const to = input.to ? readCardHolder({ ...input.to, userId: '' }, cards.network, 'to') : null;
  const card = await getOrgLoyaltyCard(cards, org, input.id);
  const { program } = await withProgram(cards, card);
  if (to) await refuseSecondCard(cards, org, to, 'to', card.id);
  const identifier = newCardIdentifier();
  const change = {
    cardId: card.id,
    identifier: {
      identifierHash: identifier.hash,
      identifierSealed: Uint8Array.from(sealIdentifier(await cards.cardKey(), card.id, identifier.identifier)),
      identifierLast4: identifier.last4,
    },
    holder: to && { holderAddress: to.address, holderPublicKey: to.publicKey, holderUserId: null },
    at: cards.orders.now(),
  };
  try {
    return { card: await rekeyCard(cards.orders.prisma, change), program, identifier: identifier.identifier };
  } catch (error) {
    // Another card took the address at the same moment.
    if (isUniqueViolation(error) && to) await refuseSecondCard(cards, org, to, 'to', card.id);
    throw error;
  }
}
