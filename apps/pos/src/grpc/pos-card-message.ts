import type { PosCard as PosCardMessage } from '@ctk/proto/ctk/pos/v1/cards';
import type { HeldCards } from '../cards/cards-held-at.js';
import type { PosCard } from '../data/pos-card-repository.js';

/**
 * The card as the contract answers it, with what its address holds at the shop. `label` and
 * `organization_id` are for the gateway and the shop's staff; the gateway's public view leaves them out.
 */
export function toPosCardMessage(card: PosCard, held: HeldCards): PosCardMessage {
  return {
    id: card.id,
    shopId: card.shopId,
    address: card.address,
    publicKey: card.publicKey ?? undefined,
    label: card.label,
    createdAt: card.createdAt.toISOString(),
    prepaidCards: held.prepaid,
    loyaltyCards: held.loyalty,
    organizationId: card.organizationId,
  };
}
