import type { GetShopAddressCardsResponse, PosCard } from '@ctk/proto/ctk/pos/v1/cards';
import { AppError } from '@ctk/shared';
import { publicLoyaltyCardView } from '../loyalty-cards/loyalty-card-view.js';
import { publicPrepaidCardView } from '../prepaid-cards/prepaid-card-view.js';
import type { PosCardAnswer, PublicPosCardAnswer, ShopAddressCardsAnswer } from './pos-card-answers.js';

/** The card as anyone sees it: no label, no organisation id, and not what its address holds (decision 0024). */
export function publicPosCardView(card: PosCard | undefined): PublicPosCardAnswer {
  if (!card) throw new AppError('internal', 'pos answered without the POS card');
  return { id: card.id, shop_id: card.shopId, address: card.address, public_key: card.publicKey || null, created_at: card.createdAt };
}

/** The card as the shop's staff see it: with its label and the cards its address holds at the shop, by their public fields only. */
export function posCardView(card: PosCard | undefined): PosCardAnswer {
  return {
    ...publicPosCardView(card),
    prepaid_cards: card!.prepaidCards.map(publicPrepaidCardView),
    loyalty_cards: card!.loyaltyCards.map(publicLoyaltyCardView),
    label: card!.label,
  };
}

/** What an address holds at the shop, for its staff, with its POS card there if it has one. */
export function shopAddressCardsView(shopId: string, response: GetShopAddressCardsResponse): ShopAddressCardsAnswer {
  return {
    shop_id: shopId,
    address: response.address,
    pos_card: response.posCard ? posCardView(response.posCard) : null,
    prepaid_cards: response.prepaidCards.map(publicPrepaidCardView),
    loyalty_cards: response.loyaltyCards.map(publicLoyaltyCardView),
  };
}
