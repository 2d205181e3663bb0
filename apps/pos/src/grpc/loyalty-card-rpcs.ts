import type { PosServiceImplementation } from '@ctk/proto/ctk/pos/v1/pos';
import { orgOf } from '@ctk/shared';
import type { CardContext } from '../cards/card-context.js';
import { createLoyaltyCard } from '../loyalty/create-loyalty-card.js';
import { getLoyaltyCard } from '../loyalty/get-loyalty-card.js';
import { getLoyaltyProgram } from '../loyalty/get-loyalty-program.js';
import { joinLoyaltyProgram } from '../loyalty/join-loyalty-program.js';
import { listHeldLoyaltyCards } from '../loyalty/list-held-loyalty-cards.js';
import { redeemLoyaltyCard } from '../loyalty/redeem-loyalty-card.js';
import { replaceLoyaltyProgram } from '../loyalty/replace-loyalty-program.js';
import { stampLoyaltyCard } from '../loyalty/stamp-loyalty-card.js';
import { transferLoyaltyCard } from '../loyalty/transfer-loyalty-card.js';
import { verifyStamp } from '../loyalty/verify-stamp.js';
import { toLoyaltyActivityMessage, toLoyaltyCardMessage, toLoyaltyProgramMessage } from './loyalty-card-message.js';

type LoyaltyCardRpcs = Pick<
  PosServiceImplementation,
  | 'getLoyaltyProgram'
  | 'replaceLoyaltyProgram'
  | 'createLoyaltyCard'
  | 'joinLoyaltyProgram'
  | 'getLoyaltyCard'
  | 'stampLoyaltyCard'
  | 'redeemLoyaltyCard'
  | 'transferLoyaltyCard'
  | 'listHeldLoyaltyCards'
  | 'verifyStamp'
>;

/** Loyalty programs and cards (docs/decisions/0017-customer-cards.md, "Loyalty"). */
export function loyaltyCardRpcs(cards: CardContext): LoyaltyCardRpcs {
  return {
    async getLoyaltyProgram(request) {
      return { program: toLoyaltyProgramMessage(await getLoyaltyProgram(cards, orgOf(request.org))) };
    },
    async replaceLoyaltyProgram(request) {
      return { program: toLoyaltyProgramMessage(await replaceLoyaltyProgram(cards, orgOf(request.org), request.program)) };
    },
    async createLoyaltyCard(request) {
      return { card: toLoyaltyCardMessage(await createLoyaltyCard(cards, orgOf(request.org), request)) };
    },
    async joinLoyaltyProgram(request) {
      return { card: toLoyaltyCardMessage(await joinLoyaltyProgram(cards, orgOf(request.org), request)) };
    },
    async getLoyaltyCard(request) {
      return { card: toLoyaltyCardMessage(await getLoyaltyCard(cards, request)) };
    },
    async stampLoyaltyCard(request) {
      const { activity, ...view } = await stampLoyaltyCard(cards, orgOf(request.org), request);
      return { card: toLoyaltyCardMessage(view), activity: toLoyaltyActivityMessage(activity) };
    },
    async redeemLoyaltyCard(request) {
      const { activity, ...view } = await redeemLoyaltyCard(cards, orgOf(request.org), request);
      return { card: toLoyaltyCardMessage(view), activity: toLoyaltyActivityMessage(activity) };
    },
    async transferLoyaltyCard(request) {
      return { card: toLoyaltyCardMessage(await transferLoyaltyCard(cards, orgOf(request.org), request)) };
    },
    async listHeldLoyaltyCards(request) {
      const page = await listHeldLoyaltyCards(cards, request);
      return { cards: page.cards.map(toLoyaltyCardMessage), nextCursor: page.nextCursor };
    },
    async verifyStamp(request) {
      const { card, stamp, receipt, verified, problem } = await verifyStamp(cards, request.txid);
      return {
        cardId: card.id,
        merchantHandle: card.merchantHandle,
        orderNumber: stamp.order.orderNumber,
        stamp: toLoyaltyActivityMessage(stamp),
        verified,
        // Unset where the receipt does not say (or the transaction is not mined), and no problem when it verified.
        receiptMerchant: receipt?.merchant || undefined,
        receiptReference: receipt?.reference || undefined,
        blockHeight: receipt?.blockHeight || undefined,
        problem: problem || undefined,
      };
    },
  };
}
