import type { PosServiceImplementation } from '@ctk/proto/ctk/pos/v1/pos';
import { orgOf } from '@ctk/shared';
import type { CardContext } from '../cards/card-context.js';
import { cardsHeldAt } from '../cards/cards-held-at.js';
import type { PosCard } from '../data/pos-card-repository.js';
import { createPosCard } from '../domain/create-pos-card.js';
import { getPosCard } from '../domain/get-pos-card.js';
import { getShopAddressCards } from '../domain/get-shop-address-cards.js';
import { listShopCards } from '../domain/list-shop-cards.js';
import { getLoyaltyPass, PKPASS_MEDIA_TYPE } from '../loyalty/get-loyalty-pass.js';
import { toPosCardMessage } from './pos-card-message.js';

type PosCardRpcs = Pick<
  PosServiceImplementation,
  'createPosCard' | 'getPosCard' | 'getPublicPosCard' | 'getShopAddressCards' | 'listShopCards' | 'getLoyaltyPass'
>;

/** POS cards and wallet passes (docs/decisions/0017-customer-cards.md). */
export function posCardRpcs(cards: CardContext): PosCardRpcs {
  const messages = async (found: PosCard[]) => {
    const held = await cardsHeldAt(cards, found);
    return found.map((card, index) => toPosCardMessage(card, held[index]!));
  };
  return {
    async createPosCard(request) {
      const { card, created } = await createPosCard(cards, orgOf(request.org), { holder: request.holder, label: request.label });
      return { card: (await messages([card]))[0], created };
    },
    async getPosCard(request) {
      // Public: the cards alone; what an address holds is its shop's staff's to read (decision 0024).
      const found = await getPosCard(cards, request);
      return { cards: found.map((card) => toPosCardMessage(card, { prepaid: [], loyalty: [] })) };
    },
    async getPublicPosCard(request) {
      const [card] = await getPosCard(cards, { id: request.cardId, address: '' });
      return { card: toPosCardMessage(card!, { prepaid: [], loyalty: [] }) };
    },
    async getShopAddressCards(request) {
      const org = orgOf(request.org);
      const { address, posCard, held } = await getShopAddressCards(cards, org, { address: request.address });
      return {
        shopId: org.handle,
        address,
        posCard: posCard ? toPosCardMessage(posCard, held) : undefined,
        prepaidCards: held.prepaid,
        loyaltyCards: held.loyalty,
      };
    },
    async listShopCards(request) {
      const page = await listShopCards(cards, orgOf(request.org), request);
      return { cards: await messages(page.cards), nextCursor: page.nextCursor };
    },
    async getLoyaltyPass(request) {
      const { org, ...input } = request;
      const pass = await getLoyaltyPass(cards, orgOf(org), input);
      return pass.platform === 'apple'
        ? { contentType: PKPASS_MEDIA_TYPE, body: pass.body, saveUrl: '', jwt: '' }
        : { contentType: 'application/json', body: Buffer.alloc(0), saveUrl: pass.saveUrl, jwt: pass.jwt };
    },
  };
}
