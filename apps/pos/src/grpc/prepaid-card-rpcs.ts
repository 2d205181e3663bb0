import type { PosServiceImplementation } from '@ctk/proto/ctk/pos/v1/pos';
import { AppError } from '@ctk/shared';
import type { CardContext } from '../cards/card-context.js';

type PrepaidCardRpcs = Pick<
  PosServiceImplementation,
  'issuePrepaidCard' | 'getPrepaidCard' | 'usePrepaidCard' | 'transferPrepaidCard' | 'listHeldPrepaidCards'
>;

const notBuilt = (): never => {
  throw new AppError('not_implemented', 'Prepaid and gift cards are not built yet (docs/decisions/0017-customer-cards.md).');
};

/** Prepaid and gift cards (docs/decisions/0017-customer-cards.md). */
// eslint-disable-next-line @typescript-eslint/no-unused-vars -- the use cases take it when they are built
export function prepaidCardRpcs(cards: CardContext): PrepaidCardRpcs {
  return {
    issuePrepaidCard: notBuilt,
    getPrepaidCard: notBuilt,
    usePrepaidCard: notBuilt,
    transferPrepaidCard: notBuilt,
    listHeldPrepaidCards: notBuilt,
  };
}
