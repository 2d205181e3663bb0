import type { PosCard } from '@ctk/proto/ctk/pos/v1/cards';
import { AppError } from '@ctk/shared';
import { publicLoyaltyCardView } from '../loyalty-cards/loyalty-card-view.js';
import { publicPrepaidCardView } from '../prepaid-cards/prepaid-card-view.js';
import type { PosCardAnswer, PublicPosCardAnswer } from './pos-card-answers.js';

/** The card as anyone sees it: no label, no organisation id; the held cards by their public fields only. */
export function publicPosCardView(card: PosCard | undefined): PublicPosCardAnswer {
  if (!card) throw new AppError('internal', 'pos answered without the POS card');
  return {
    id: card.id,
    shop_id: card.shopId,
    address: card.address,
    public_key: card.publicKey || null,
    created_at: card.createdAt,
    prepaid_cards: card.prepaidCards.map(publicPrepaidCardView),
    loyalty_cards: card.loyaltyCards.map(publicLoyaltyCardView),
  };
}

/** The card as the shop's staff see it: with its label. */
export function posCardView(card: PosCard | undefined): PosCardAnswer {
  return { ...publicPosCardView(card), label: card!.label };
}
