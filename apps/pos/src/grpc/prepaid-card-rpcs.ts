import type { PosServiceImplementation } from '@ctk/proto/ctk/pos/v1/pos';
import { orgOf } from '@ctk/shared';
import type { CardContext } from '../cards/card-context.js';
import { getPrepaidCard } from '../prepaid/get-prepaid-card.js';
import { issuePrepaidCard } from '../prepaid/issue-prepaid-card.js';
import { listHeldPrepaidCards } from '../prepaid/list-held-prepaid-cards.js';
import { listPrepaidCards } from '../prepaid/list-prepaid-cards.js';
import { purchasePrepaidCard } from '../prepaid/purchase-prepaid-card.js';
import { transferPrepaidCard } from '../prepaid/transfer-prepaid-card.js';
import { usePrepaidCard } from '../prepaid/use-prepaid-card.js';
import { toOrderMessage } from './order-message.js';
import { toPrepaidActivityMessage, toPrepaidCardMessage } from './prepaid-card-message.js';

type PrepaidCardRpcs = Pick<
  PosServiceImplementation,
  | 'issuePrepaidCard'
  | 'purchasePrepaidCard'
  | 'getPrepaidCard'
  | 'usePrepaidCard'
  | 'transferPrepaidCard'
  | 'listHeldPrepaidCards'
  | 'listPrepaidCards'
>;

/** Prepaid and gift cards (docs/decisions/0017-customer-cards.md). */
export function prepaidCardRpcs(cards: CardContext): PrepaidCardRpcs {
  const now = () => cards.orders.now();
  return {
    async issuePrepaidCard(request) {
      const { org: orgRef, ...input } = request;
      const issued = await issuePrepaidCard(cards, orgRef ?? {}, orgOf(orgRef), input);
      return { card: toPrepaidCardMessage(issued.card, issued.identifier), order: toOrderMessage(issued.order, request.publicUrl, now()) };
    },
    async purchasePrepaidCard(request) {
      const { org: orgRef, ...purchase } = request;
      const bought = await purchasePrepaidCard(cards, orgRef ?? {}, orgOf(orgRef), purchase);
      return { card: toPrepaidCardMessage(bought.card, bought.identifier), order: toOrderMessage(bought.order, request.publicUrl, now()) };
    },
    async getPrepaidCard(request) {
      return { card: toPrepaidCardMessage(await getPrepaidCard(cards, request)) };
    },
    async usePrepaidCard(request) {
      const used = await usePrepaidCard(cards, orgOf(request.org), request);
      return {
        card: toPrepaidCardMessage(used.card),
        order: toOrderMessage(used.order, request.publicUrl, now()),
        activity: toPrepaidActivityMessage(used.activity),
      };
    },
    async transferPrepaidCard(request) {
      const transferred = await transferPrepaidCard(cards, orgOf(request.org), request);
      return { card: toPrepaidCardMessage(transferred.card, transferred.identifier) };
    },
    async listPrepaidCards(request) {
      const page = await listPrepaidCards(cards, orgOf(request.org), request);
      return { cards: page.cards.map((card) => toPrepaidCardMessage(card)), nextCursor: page.nextCursor };
    },
    async listHeldPrepaidCards(request) {
      const page = await listHeldPrepaidCards(cards, request);
      return { cards: page.cards.map((held) => toPrepaidCardMessage(held.card, held.identifier)), nextCursor: page.nextCursor };
    },
  };
}
