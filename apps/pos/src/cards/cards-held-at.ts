import type { LoyaltyCard, PrepaidCard } from '@ctk/proto/ctk/pos/v1/cards';
import type { CardContext } from './card-context.js';

/** What an address holds at one shop: its prepaid and loyalty cards there, as their public views. */
export type HeldCards = { prepaid: PrepaidCard[]; loyalty: LoyaltyCard[] };

/**
 * The prepaid and loyalty cards each (organisation, address) holds, in the order asked
 * (docs/decisions/0017-customer-cards.md, "POS cards": the card shows what its address holds at the shop).
 * One call per answer, so that a page of cards costs one lookup per kind of card, not one per card.
 *
 * Empty for now: prepaid and loyalty cards are being built on their own branches. The lead wires this
 * after merging them (cards whose holder address is `address` at `organizationId`, public fields only: no
 * identifier, holder or activities).
 */
export async function cardsHeldAt(
  _context: CardContext,
  shopAddresses: readonly { organizationId: string; address: string }[],
): Promise<HeldCards[]> {
  return shopAddresses.map(() => ({ prepaid: [], loyalty: [] }));
}
