import type { PosServiceImplementation } from '@ctk/proto/ctk/pos/v1/pos';
import { AppError } from '@ctk/shared';
import type { CardContext } from '../cards/card-context.js';

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
// eslint-disable-next-line @typescript-eslint/no-unused-vars -- the use cases take it when they are built
export function loyaltyCardRpcs(cards: CardContext): LoyaltyCardRpcs {
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
