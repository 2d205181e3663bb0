import type { LoyaltyCard, PosCard, PrepaidCard } from '@ctk/proto/ctk/pos/v1/cards';
import { AppError } from '@ctk/shared';
import { minorUnitsOf } from '../routes/answer-schema.js';
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
    prepaid_cards: card.prepaidCards.map(heldPrepaidView),
    loyalty_cards: card.loyaltyCards.map(heldLoyaltyView),
  };
}

/** The card as the shop's staff see it: with its label. */
export function posCardView(card: PosCard | undefined): PosCardAnswer {
  return { ...publicPosCardView(card), label: card!.label };
}

function heldPrepaidView(card: PrepaidCard) {
  return {
    id: card.id,
    merchant_handle: card.merchantHandle,
    currency: card.currency,
    status: card.status,
    balance_minor: minorUnitsOf(card.balanceMinor),
    identifier_last4: card.identifierLast4,
  };
}

function heldLoyaltyView(card: LoyaltyCard) {
  return {
    id: card.id,
    merchant_handle: card.merchantHandle,
    status: card.status,
    stamps: card.stamps,
    stamps_for_reward: card.stampsForReward,
    rewards_available: card.rewardsAvailable,
    reward: card.reward,
    identifier_last4: card.identifierLast4,
  };
}
