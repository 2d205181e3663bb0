import { AppError, type Org } from '@ctk/shared';
import type { CardContext } from '../cards/card-context.js';
import { findLoyaltyProgram, type LoyaltyProgram } from '../data/loyalty-program-repository.js';

/** The organisation's loyalty program; none before its first save is 404 saying how to make one. */
export async function getLoyaltyProgram(cards: CardContext, org: Org): Promise<LoyaltyProgram> {
  const program = await findLoyaltyProgram(cards.orders.prisma, org.id);
  if (!program) {
    throw new AppError(
      'not_found',
      `${org.handle} has no loyalty program yet: an admin makes one with PUT /api/v1/orgs/${org.handle}/loyalty-program`,
    );
  }
  return program;
}

/** The program new cards and stamps need: saved and active, else 409 failed_precondition saying what to do. */
export async function activeLoyaltyProgram(cards: CardContext, org: Org): Promise<LoyaltyProgram> {
  const program = await findLoyaltyProgram(cards.orders.prisma, org.id);
  if (!program) {
    throw new AppError(
      'failed_precondition',
      `${org.handle} has no loyalty program: an admin sets one up with PUT /api/v1/orgs/${org.handle}/loyalty-program`,
      { reason: 'no_program' },
    );
  }
  if (!program.active) {
    throw new AppError('failed_precondition', `The loyalty program of ${org.handle} is paused: no new cards or stamps until it is active`, {
      reason: 'program_inactive',
    });
  }
  return program;
}
