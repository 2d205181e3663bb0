import type { PosServiceImplementation } from '@ctk/proto/ctk/pos/v1/pos';
import { AppError } from '@ctk/shared';

type LoyaltyCardRpcs = Pick<
  PosServiceImplementation,
  | 'getLoyaltyProgram'
  | 'replaceLoyaltyProgram'
  | 'createLoyaltyCard'
  | 'getLoyaltyCard'
  | 'stampLoyaltyCard'
  | 'redeemLoyaltyCard'
  | 'transferLoyaltyCard'
  | 'listHeldLoyaltyCards'
  | 'verifyStamp'
>;

const notBuilt = (): never => {
  throw new AppError('not_implemented', 'Loyalty cards are not built yet (docs/decisions/0017-customer-cards.md).');
};

/** Loyalty programs and cards (docs/decisions/0017-customer-cards.md). */
export function loyaltyCardRpcs(): LoyaltyCardRpcs {
  return {
    getLoyaltyProgram: notBuilt,
    replaceLoyaltyProgram: notBuilt,
    createLoyaltyCard: notBuilt,
    getLoyaltyCard: notBuilt,
    stampLoyaltyCard: notBuilt,
    redeemLoyaltyCard: notBuilt,
    transferLoyaltyCard: notBuilt,
    listHeldLoyaltyCards: notBuilt,
    verifyStamp: notBuilt,
  };
}
