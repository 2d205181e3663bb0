import {
  LoyaltyCard as LoyaltyCardMessage,
  type LoyaltyActivity as LoyaltyActivityMessage,
  type LoyaltyProgram as LoyaltyProgramMessage,
} from '@ctk/proto/ctk/pos/v1/cards';
import { holderMessage } from '../cards/card-holder.js';
import type { LoyaltyActivity } from '../data/loyalty-card-repository.js';
import type { LoyaltyProgram } from '../data/loyalty-program-repository.js';
import type { LoyaltyCardView } from '../loyalty/loyalty-card-view.js';
import { rewardsAvailable } from '../loyalty/loyalty-rules.js';

export function toLoyaltyProgramMessage(program: LoyaltyProgram): LoyaltyProgramMessage {
  return {
    stampRule: program.stampRule,
    amountPerStampMinor: program.amountPerStampMinor,
    stampsForReward: program.stampsForReward,
    reward: program.reward,
    rewardValueMinor: program.rewardValueMinor,
    active: program.active,
    version: program.version,
    updatedAt: program.updatedAt.toISOString(),
  };
}

/**
 * The card as the contract answers it to the gateway, which cuts the public, staff and holder views from
 * it: the identifier only when the use case opened or made it, the holder (with the user id the gateway
 * never shows) and the ledger when it was read.
 */
export function toLoyaltyCardMessage({ card, program, identifier, activities }: LoyaltyCardView): LoyaltyCardMessage {
  return {
    id: card.id,
    merchantHandle: card.merchantHandle,
    status: card.status,
    stamps: card.stamps,
    stampsForReward: program.stampsForReward,
    rewardsAvailable: rewardsAvailable(card.stamps, program),
    reward: program.reward,
    rewardsRedeemed: card.rewardsRedeemed,
    identifierLast4: card.identifierLast4,
    identifier: identifier || undefined,
    createdAt: card.createdAt.toISOString(),
    activities: (activities ?? []).map(toLoyaltyActivityMessage),
    holder: holderMessage({ address: card.holderAddress, publicKey: card.holderPublicKey, userId: card.holderUserId }),
    organizationId: card.organizationId,
  };
}

/**
 * The card as anyone may see it, wherever it shows beside something public (a POS card): the public lookup's
 * fields only (its standing and the identifier's last 4), the rest left empty.
 */
export function toPublicLoyaltyCardMessage(view: Pick<LoyaltyCardView, 'card' | 'program'>): LoyaltyCardMessage {
  const { id, merchantHandle, status, stamps, stampsForReward, rewardsAvailable, reward, identifierLast4 } = toLoyaltyCardMessage(view);
  return LoyaltyCardMessage.fromPartial({ id, merchantHandle, status, stamps, stampsForReward, rewardsAvailable, reward, identifierLast4 });
}

export function toLoyaltyActivityMessage(activity: LoyaltyActivity): LoyaltyActivityMessage {
  return {
    sequence: BigInt(activity.sequence),
    kind: activity.kind,
    stamps: activity.stamps,
    stampsAfter: activity.stampsAfter,
    orderNumber: activity.order?.orderNumber,
    receipt: activity.receiptTxid !== null ? { txid: activity.receiptTxid, vout: activity.receiptVout ?? 0 } : undefined,
    occurredAt: activity.occurredAt.toISOString(),
  };
}
