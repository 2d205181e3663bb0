import type { LoyaltyActivity, LoyaltyCard } from '../data/loyalty-card-repository.js';
import type { LoyaltyProgram } from '../data/loyalty-program-repository.js';

/**
 * What a loyalty use case answers: the card with its organisation's program (what a reward takes and
 * is), and, only where the reader may have them, the identifier in full and the ledger.
 */
export type LoyaltyCardView = {
  card: LoyaltyCard;
  program: LoyaltyProgram;
  identifier?: string;
  activities?: LoyaltyActivity[];
};
