import type { PosServiceImplementation } from '@ctk/proto/ctk/pos/v1/pos';
import { AppError } from '@ctk/shared';
import type { CardContext } from '../cards/card-context.js';

type PosCardRpcs = Pick<PosServiceImplementation, 'createPosCard' | 'getPosCard' | 'listShopCards' | 'getLoyaltyPass'>;

const notBuilt = (): never => {
  throw new AppError('not_implemented', 'POS cards and wallet passes are not built yet (docs/decisions/0017-customer-cards.md).');
};

/** POS cards and wallet passes (docs/decisions/0017-customer-cards.md). */
// eslint-disable-next-line @typescript-eslint/no-unused-vars -- the use cases take it when they are built
export function posCardRpcs(cards: CardContext): PosCardRpcs {
  return { createPosCard: notBuilt, getPosCard: notBuilt, listShopCards: notBuilt, getLoyaltyPass: notBuilt };
}
