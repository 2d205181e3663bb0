import { randomUUID } from 'node:crypto';
import type { CardHolder } from '@ctk/proto/ctk/pos/v1/cards';
import { AppError, isUniqueViolation, type Org } from '@ctk/shared';
import type { CardContext } from '../cards/card-context.js';
import { readCardHolder, type Holder } from '../cards/card-holder.js';
import { newCardIdentifier, sealIdentifier } from '../cards/card-identifier.js';
import { insertLoyaltyCard, loyaltyCardHeldBy } from '../data/loyalty-card-repository.js';
import { activeLoyaltyProgram } from './get-loyalty-program.js';
import type { LoyaltyCardView } from './loyalty-card-view.js';

/**
 * A loyalty card in the organisation's active program: made by staff for an address, a public key or
 * nobody, or by a customer for themselves (the gateway's user id, perhaps with an address). One card per
 * (organisation, user) and per (organisation, address): another is 409 naming the existing card. The
 * identifier is answered in full this once, to whoever made the card; pos keeps it sealed under the card id.
 */
export async function createLoyaltyCard(
  cards: CardContext,
  org: Org,
  request: { holder?: CardHolder | undefined },
): Promise<LoyaltyCardView> {
  const holder = readCardHolder(request.holder, cards.network, 'holder');
  const program = await activeLoyaltyProgram(cards, org);
  await refuseSecondCard(cards, org, holder);
  const key = await cards.cardKey();
  for (let attempt = 0; ; attempt++) {
    const id = randomUUID();
    const identifier = newCardIdentifier();
    try {
      const card = await insertLoyaltyCard(cards.orders.prisma, {
        id,
        organizationId: org.id,
        merchantHandle: org.handle,
        identifierHash: identifier.hash,
        identifierSealed: Uint8Array.from(sealIdentifier(key, id, identifier.identifier)),
        identifierLast4: identifier.last4,
        holderAddress: holder.address,
        holderPublicKey: holder.publicKey,
        holderUserId: holder.userId,
        createdAt: cards.orders.now(),
      });
      return { card, program, identifier: identifier.identifier, activities: [] };
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      // The same holder made a card at the same moment; else an identifier drawn twice (1 in 2^80): draw again.
      await refuseSecondCard(cards, org, holder);
      if (attempt >= 2) throw error;
    }
  }
}

/** 409 already_exists naming the card the holder has at the organisation, if they have one. */
export async function refuseSecondCard(
  cards: CardContext,
  org: Org,
  holder: Pick<Holder, 'userId' | 'address'>,
  field = 'holder',
  except?: string,
): Promise<void> {
  const existing = await loyaltyCardHeldBy(cards.orders.prisma, org.id, holder);
  if (!existing || existing.id === except) return;
  const byUser = holder.userId !== null && existing.holderUserId === holder.userId;
  throw new AppError(
    'already_exists',
    `${byUser ? 'This customer' : 'This address'} has a loyalty card at ${org.handle} already: ${existing.id}`,
    {
      field: `${field}.${byUser ? 'user_id' : 'address'}`,
      card_id: existing.id,
    },
  );
}
