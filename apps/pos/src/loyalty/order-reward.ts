import { timingSafeEqual } from 'node:crypto';
import { AppError, type Org } from '@ctk/shared';
import { readCardIdentifier } from '../cards/card-identifier.js';
import { loyaltyCardById, restoreStamps, takeStampsIn } from '../data/loyalty-card-repository.js';
import { findLoyaltyProgram } from '../data/loyalty-program-repository.js';
import type { OrderTransaction } from '../data/order-repository.js';
import type { PrismaClient } from '../generated/prisma/client.js';
import { oneAtATime } from '../pay-links/one-at-a-time.js';

/** A reward an order asks to redeem (decision 0023): the card, what the program says it is and is worth. */
export type RewardToRedeem = {
  cardId: string;
  organizationId: string;
  identifierHash: string;
  stamps: number;
  valueMinor: bigint;
  reward: string;
};

const FIELD = 'redeem_reward_identifier';

/**
 * Orders redeeming one card's reward go one at a time in this process, so that each sees the stamps the
 * one before spent and a second one is refused before pos takes a rate and a receiving output for
 * nothing. The card's conditional UPDATE in the order's transaction decides across processes.
 */
export const oneRedemptionAtATime = oneAtATime();

/**
 * The reward an order is created (or quoted) with: `redeem_reward_identifier` is the identifier of the
 * order's loyalty card as the customer presents it (spending needs it, decision 0017). Refused before
 * anything is priced: no card (422), another identifier (404, as for an unknown card), a program whose
 * reward has no value (409), too few stamps (409 not_enough_stamps). Null when the order redeems nothing.
 */
export async function rewardToRedeem(
  prisma: PrismaClient,
  org: Org,
  loyaltyCardId: string | null,
  identifierText: string,
): Promise<RewardToRedeem | null> {
  if (!identifierText) return null;
  if (!loyaltyCardId) {
    throw new AppError('validation_failed', `${FIELD} redeems a reward of the order's loyalty card: give loyalty_card_id too`, {
      field: 'loyalty_card_id',
    });
  }
  const identifier = readCardIdentifier(identifierText, FIELD);
  const card = await loyaltyCardById(prisma, loyaltyCardId);
  if (!card || !sameHash(card.identifierHash, identifier.hash)) {
    throw new AppError('not_found', `No such loyalty card in ${org.handle}: ${FIELD} is not the identifier of loyalty_card_id`, {
      field: FIELD,
    });
  }
  const program = await findLoyaltyProgram(prisma, org.id);
  if (!program || program.rewardValueMinor <= 0n) {
    throw new AppError(
      'failed_precondition',
      `The loyalty program's reward has no value to take off an order: an admin sets reward_value_minor (PUT /api/v1/orgs/${org.handle}/loyalty-program)`,
      { field: FIELD },
    );
  }
  if (card.stamps < program.stampsForReward) throw notEnoughStamps(card.stamps, program.stampsForReward, program.reward);
  return {
    cardId: card.id,
    organizationId: org.id,
    identifierHash: identifier.hash,
    stamps: program.stampsForReward,
    valueMinor: program.rewardValueMinor,
    reward: program.reward,
  };
}

/**
 * Spends the reward's stamps in the order's insert transaction: one conditional UPDATE of the card's row
 * (`... WHERE stamps >= n`, which locks it until the order commits), and the `redeem` row of its ledger.
 * Of concurrent orders redeeming one reward exactly one matches; the others are 409 not_enough_stamps and
 * their transaction, the order's insert with it, rolls back.
 */
export async function spendReward(tx: OrderTransaction, reward: RewardToRedeem, at: Date): Promise<void> {
  const { card, activity } = await takeStampsIn(tx, { ...reward, at });
  if (!activity) throw notEnoughStamps(card.stamps, reward.stamps, reward.reward);
}

/**
 * Gives the stamps a reward order spent back to its card, in the transaction that cancels the order with its
 * row locked: that transaction moves the order to cancelled once, so the stamps come back once however often,
 * or however many at once, it is cancelled. The reward no longer counts as redeemed; the card's ledger shows
 * a `restore` row.
 */
export async function restoreReward(tx: OrderTransaction, order: { loyaltyCardId: string | null; rewardStamps: number }, at: Date) {
  if (!order.loyaltyCardId || order.rewardStamps <= 0) return;
  await restoreStamps(tx, { cardId: order.loyaltyCardId, stamps: order.rewardStamps, at });
}

function notEnoughStamps(stamps: number, needed: number, reward: string): AppError {
  return new AppError('not_enough_stamps', `The card has ${stamps} stamps; a reward (${reward}) takes ${needed}`, {
    stamps,
    stamps_for_reward: needed,
  });
}

function sameHash(a: string, b: string): boolean {
  return timingSafeEqual(Buffer.from(a, 'hex'), Buffer.from(b, 'hex'));
}
