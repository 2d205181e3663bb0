import type { LoyaltyProgram, Prisma, PrismaClient } from '../generated/prisma/client.js';

export type { LoyaltyProgram };
export type ProgramFields = Pick<
  LoyaltyProgram,
  'stampRule' | 'amountPerStampMinor' | 'stampsForReward' | 'reward' | 'rewardValueMinor' | 'active'
>;

type Db = PrismaClient | Prisma.TransactionClient;

/** The organisation's loyalty program, or null before its first save. */
export function findLoyaltyProgram(db: Db, organizationId: string): Promise<LoyaltyProgram | null> {
  return db.loyaltyProgram.findUnique({ where: { organizationId } });
}

/** The programs of several organisations (a customer's cards are at several), by organisation id. */
export async function loyaltyProgramsOf(db: Db, organizationIds: readonly string[]): Promise<Map<string, LoyaltyProgram>> {
  const programs = await db.loyaltyProgram.findMany({ where: { organizationId: { in: [...new Set(organizationIds)] } } });
  return new Map(programs.map((program) => [program.organizationId, program]));
}

/**
 * Replaces the program as a whole in one statement: the first save inserts version 1, each later one adds
 * 1 to the version it finds, so that concurrent saves each count and none is lost in between.
 */
export async function saveLoyaltyProgram(
  prisma: PrismaClient,
  organizationId: string,
  fields: ProgramFields,
  now: Date,
): Promise<LoyaltyProgram> {
  const [saved] = await prisma.$queryRaw<Array<{ version: bigint | number }>>`
    INSERT INTO loyalty_programs (organization_id, stamp_rule, amount_per_stamp_minor, stamps_for_reward, reward, reward_value_minor,
      active, version, updated_at)
    VALUES (${organizationId}::uuid, ${fields.stampRule}, ${fields.amountPerStampMinor}, ${fields.stampsForReward}, ${fields.reward},
      ${fields.rewardValueMinor}, ${fields.active}, 1, ${now})
    ON CONFLICT (organization_id) DO UPDATE SET
      stamp_rule = EXCLUDED.stamp_rule,
      amount_per_stamp_minor = EXCLUDED.amount_per_stamp_minor,
      stamps_for_reward = EXCLUDED.stamps_for_reward,
      reward = EXCLUDED.reward,
      reward_value_minor = EXCLUDED.reward_value_minor,
      active = EXCLUDED.active,
      version = loyalty_programs.version + 1,
      updated_at = EXCLUDED.updated_at
    RETURNING version`;
  return { organizationId, ...fields, version: BigInt(saved!.version), updatedAt: now };
}
