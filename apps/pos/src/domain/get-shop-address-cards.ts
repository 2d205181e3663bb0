import type { Org } from '@ctk/shared';
import type { CardContext } from '../cards/card-context.js';
import { cardsHeldAt, type HeldCards } from '../cards/cards-held-at.js';
import type { PosCard } from '../data/pos-card-repository.js';
import { readAddress } from './get-pos-card.js';

/**
 * What an address holds at the organisation's shop, for its staff at the counter
 * (docs/decisions/0024-proof-holds-and-privacy.md): its prepaid and loyalty cards there, whether or not
 * staff have made its POS card yet, and that card if they have. Another shop's cards are never read.
 */
export async function getShopAddressCards(
  context: CardContext,
  org: Org,
  input: { address: string },
): Promise<{ address: string; posCard: PosCard | null; held: HeldCards }> {
  const address = readAddress(context, input.address);
  const [posCard, [held]] = await Promise.all([
    context.posCards.atShop(org.id, address),
    cardsHeldAt(context, [{ organizationId: org.id, address }]),
  ]);
  return { address, posCard, held: held! };
}
