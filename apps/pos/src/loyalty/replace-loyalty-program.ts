import { AppError, lineOfText, type Org, validate } from '@ctk/shared';
import type { LoyaltyProgram as LoyaltyProgramMessage } from '@ctk/proto/ctk/pos/v1/cards';
import { z } from 'zod';
import type { CardContext } from '../cards/card-context.js';
import { saveLoyaltyProgram, type LoyaltyProgram } from '../data/loyalty-program-repository.js';
import { MAX_PRICE_CENTS } from '../domain/create-item.js';

const STAMPS_RULE = 'stamps_for_reward must be a whole number from 1 to 100';

const programSchema = z
  .object({
    stampRule: z.enum(['visit', 'amount'], { error: 'stamp_rule must be "visit" (a stamp per paid order) or "amount"' }),
    amountPerStampMinor: z
      .bigint()
      .min(0n, 'amount_per_stamp_minor must not be negative')
      .max(MAX_PRICE_CENTS, `amount_per_stamp_minor must be at most ${MAX_PRICE_CENTS}`),
    stampsForReward: z.number().int(STAMPS_RULE).min(1, STAMPS_RULE).max(100, STAMPS_RULE),
    reward: lineOfText('reward', 120).refine(
      (reward) => reward.length > 0,
      'reward is required: what a customer gets, e.g. "A free coffee"',
    ),
    rewardValueMinor: z
      .bigint()
      .min(0n, 'reward_value_minor must not be negative')
      .max(MAX_PRICE_CENTS, `reward_value_minor must be at most ${MAX_PRICE_CENTS}`),
    active: z.boolean(),
  })
  .superRefine((program, context) => {
    if (program.stampRule === 'amount' && program.amountPerStampMinor === 0n) {
      context.addIssue({
        code: 'custom',
        path: ['amountPerStampMinor'],
        message: 'the "amount" rule needs amount_per_stamp_minor: the minor units of an order that earn one stamp',
      });
    }
    if (program.stampRule === 'visit' && program.amountPerStampMinor !== 0n) {
      context.addIssue({
        code: 'custom',
        path: ['amountPerStampMinor'],
        message: 'amount_per_stamp_minor is for the "amount" rule only: leave it out for "visit"',
      });
    }
  });

/** Replaces the organisation's program as a whole (admin); the version counts the saves. */
export async function replaceLoyaltyProgram(
  cards: CardContext,
  org: Org,
  program: LoyaltyProgramMessage | undefined,
): Promise<LoyaltyProgram> {
  if (!program) throw new AppError('validation_failed', 'program is required', { field: 'program' });
  const fields = validate(programSchema, {
    stampRule: program.stampRule,
    amountPerStampMinor: program.amountPerStampMinor,
    stampsForReward: program.stampsForReward,
    reward: program.reward,
    rewardValueMinor: program.rewardValueMinor,
    // Absent: a program is active from its first save.
    active: program.active ?? true,
  });
  return saveLoyaltyProgram(cards.orders.prisma, org.id, fields, cards.orders.now());
}
