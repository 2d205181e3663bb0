import type { LoyaltyCard, PrepaidCard } from '@ctk/proto/ctk/pos/v1/cards';
import { AppError } from '@ctk/shared';
import { loyaltyCardsHeldAtAddresses } from '../data/loyalty-card-repository.js';
import { loyaltyProgramsOf } from '../data/loyalty-program-repository.js';
import { cardsHeldAtAddresses } from '../data/prepaid-card-repository.js';
import { toPublicLoyaltyCardMessage } from '../grpc/loyalty-card-message.js';
import { toPublicPrepaidCardMessage } from '../grpc/prepaid-card-message.js';
import { expireCardOrders } from '../prepaid/expire-card-orders.js';
import type { CardContext } from './card-context.js';

/** What an address holds at one shop: its prepaid and loyalty cards there, as their public views. */
export type HeldCards = { prepaid: PrepaidCard[]; loyalty: LoyaltyCard[] };

type ShopAddress = { organizationId: string; address: string };

/**
 * The prepaid and loyalty cards each (organisation, address) holds, in the order asked, newest first
 * (docs/decisions/0017-customer-cards.md, "POS cards": the card shows what its address holds at the shop).
 * Public views only: no identifier, holder or ledger. A void prepaid card is left out (it never held
 * money); a pending one shows, its order being paid. One lookup per kind of card for the whole list.
 */
export async function cardsHeldAt(context: CardContext, shopAddresses: readonly ShopAddress[]): Promise<HeldCards[]> {
  const [prepaid, loyalty] = await Promise.all([heldPrepaidCards(context, shopAddresses), heldLoyaltyCards(context, shopAddresses)]);
  return shopAddresses.map(({ organizationId, address }) => {
    const at = (card: { organizationId: string; holderAddress: string | null }) =>
      card.organizationId === organizationId && card.holderAddress === address;
    return {
      prepaid: prepaid.filter(at).map(toPublicPrepaidCardMessage),
      loyalty: loyalty.filter(({ card }) => at(card)).map(toPublicLoyaltyCardMessage),
    };
  });
}

/** The cards as a read by id finds them: orders of theirs that expired meanwhile are expired first (decision 0017). */
async function heldPrepaidCards(context: CardContext, shopAddresses: readonly ShopAddress[]) {
  const found = await cardsHeldAtAddresses(context.orders.prisma, shopAddresses);
  if (found.length === 0) return found;
  const expired = await expireCardOrders(
    context.orders,
    found.map((card) => card.id),
  );
  return expired.length === 0 ? found : cardsHeldAtAddresses(context.orders.prisma, shopAddresses);
}

async function heldLoyaltyCards(context: CardContext, shopAddresses: readonly ShopAddress[]) {
  const found = await loyaltyCardsHeldAtAddresses(context.orders.prisma, shopAddresses);
  if (found.length === 0) return [];
  const programs = await loyaltyProgramsOf(
    context.orders.prisma,
    found.map((card) => card.organizationId),
  );
  return found.map((card) => {
    const program = programs.get(card.organizationId);
    if (!program) throw new AppError('internal', `Loyalty card ${card.id} has no program`);
    return { card, program };
  });
}
