import type { LoyaltyActivity, LoyaltyCard, LoyaltyProgram, VerifyStampResponse } from '@ctk/proto/ctk/pos/v1/cards';
import { AppError } from '@ctk/shared';
import { minorUnitsOf } from '../routes/answer-schema.js';
import type {
  HeldLoyaltyCardAnswer,
  IssuedLoyaltyCardAnswer,
  LoyaltyActivityAnswer,
  LoyaltyCardAnswer,
  LoyaltyProgramAnswer,
  LoyaltyStampVerificationAnswer,
  PublicLoyaltyCardAnswer,
} from './loyalty-card-answers.js';

/** The program as staff read it. */
export function loyaltyProgramView(program: LoyaltyProgram | undefined): LoyaltyProgramAnswer {
  if (!program) throw new AppError('internal', 'pos answered without the program');
  return {
    stamp_rule: program.stampRule as LoyaltyProgramAnswer['stamp_rule'],
    amount_per_stamp_minor: minorUnitsOf(program.amountPerStampMinor),
    stamps_for_reward: program.stampsForReward,
    reward: program.reward,
    reward_value_minor: minorUnitsOf(program.rewardValueMinor),
    active: program.active,
    version: Number(program.version),
    updated_at: program.updatedAt,
  };
}

/** The card as anyone sees it: its standing, nothing of its holder, history or identifier but the last 4 characters. */
export function publicLoyaltyCardView(card: LoyaltyCard | undefined): PublicLoyaltyCardAnswer {
  const known = present(card);
  return {
    id: known.id,
    merchant_handle: known.merchantHandle,
    status: known.status as PublicLoyaltyCardAnswer['status'],
    stamps: known.stamps,
    stamps_for_reward: known.stampsForReward,
    rewards_available: known.rewardsAvailable,
    reward: known.reward,
    identifier_last4: known.identifierLast4,
  };
}

/** The card as its organisation's staff see it: the holder's address or key too, never the user id or the identifier. */
export function loyaltyCardView(card: LoyaltyCard | undefined): LoyaltyCardAnswer {
  const known = present(card);
  return {
    ...publicLoyaltyCardView(known),
    rewards_redeemed: known.rewardsRedeemed,
    holder: { address: known.holder?.address || null, public_key: known.holder?.publicKey || null },
    created_at: known.createdAt,
  };
}

/** The card as whoever issued or re-keyed it sees it, this once: with the identifier in full. */
export function issuedLoyaltyCardView(card: LoyaltyCard | undefined): IssuedLoyaltyCardAnswer {
  const known = present(card);
  if (!known.identifier) throw new AppError('internal', 'pos answered a new card without its identifier');
  return { ...loyaltyCardView(known), identifier: known.identifier };
}

/** The card as its holder's wallet shows it: the identifier (what they present) and the ledger. */
export function heldLoyaltyCardView(card: LoyaltyCard | undefined): HeldLoyaltyCardAnswer {
  const known = present(card);
  return { ...loyaltyCardView(known), identifier: known.identifier || null, activities: known.activities.map(loyaltyActivityView) };
}

export function loyaltyActivityView(activity: LoyaltyActivity | undefined): LoyaltyActivityAnswer {
  if (!activity) throw new AppError('internal', 'pos answered without the activity');
  return {
    sequence: Number(activity.sequence),
    kind: activity.kind as LoyaltyActivityAnswer['kind'],
    stamps: activity.stamps,
    stamps_after: activity.stampsAfter,
    order_number: activity.orderNumber || null,
    receipt: activity.receipt ? { txid: activity.receipt.txid, vout: activity.receipt.vout } : null,
    occurred_at: activity.occurredAt,
  };
}

export function stampVerificationView(answer: VerifyStampResponse): LoyaltyStampVerificationAnswer {
  return {
    card_id: answer.cardId,
    merchant_handle: answer.merchantHandle,
    order_number: answer.orderNumber,
    stamp: loyaltyActivityView(answer.stamp),
    verified: answer.verified,
    receipt_merchant: answer.receiptMerchant || null,
    receipt_reference: answer.receiptReference || null,
    block_height: answer.blockHeight ? Number(answer.blockHeight) : null,
    problem: answer.problem || null,
  };
}

function present(card: LoyaltyCard | undefined): LoyaltyCard {
  if (!card) throw new AppError('internal', 'pos answered without the card');
  return card;
}
