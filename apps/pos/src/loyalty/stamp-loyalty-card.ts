import { AppError, isUniqueViolation, prismaQueries, type Org } from '@ctk/shared';
import type { CardContext } from '../cards/card-context.js';
import { appendStamp, loyaltyCardById, stampOfOrder, type LoyaltyActivity } from '../data/loyalty-card-repository.js';
import { getOrgOrder } from '../domain/get-order.js';
import { checkedOrderNumber, statusAt } from '../orders/order-state.js';
import { getOrgLoyaltyCard } from './get-loyalty-card.js';
import { activeLoyaltyProgram } from './get-loyalty-program.js';
import type { LoyaltyCardView } from './loyalty-card-view.js';
import { MAX_CARD_STAMPS, stampReceipt, stampsEarned } from './loyalty-rules.js';

/**
 * Staff stamp the organisation's card for a paid (or confirmed) order of the organisation. An order
 * stamps once: the order's row is locked while its stamp is looked for and written, and its id is unique
 * in the ledger, so a second stamp of the same order, on this card or another, is 409 already_stamped.
 */
export async function stampLoyaltyCard(
  cards: CardContext,
  org: Org,
  input: { id: string; orderNumber: string },
): Promise<LoyaltyCardView & { activity: LoyaltyActivity }> {
  checkedOrderNumber(input.orderNumber);
  const card = await getOrgLoyaltyCard(cards, org, input.id);
  const program = await activeLoyaltyProgram(cards, org);
  const order = await getOrgOrder(cards.orders, org, input.orderNumber);
  const activity = await cards.orders.orders
    .locked(order.id, async (tx, locked) => {
      const status = statusAt(locked, cards.orders.now());
      if (status !== 'paid' && status !== 'confirmed') {
        throw new AppError('failed_precondition', `Order ${locked.orderNumber} is ${status}: only a paid order stamps a card`, {
          field: 'order_number',
        });
      }
      if (await stampOfOrder(tx, locked.id)) throw alreadyStamped(locked.orderNumber);
      const stamps = stampsEarned(program, locked);
      if (stamps === 0) {
        throw new AppError(
          'validation_failed',
          `Order ${locked.orderNumber} comes to ${locked.subtotalMinor - locked.discountMinor} minor units after discount; ` +
            `the program gives a stamp for each ${program.amountPerStampMinor}, so it earns none`,
          { field: 'order_number' },
        );
      }
      const current = await loyaltyCardById(tx, card.id);
      if (current && current.stamps + stamps > MAX_CARD_STAMPS) {
        throw new AppError('failed_precondition', `A card holds at most ${MAX_CARD_STAMPS} stamps: redeem some first`);
      }
      return appendStamp(prismaQueries(tx), {
        cardId: card.id,
        stamps,
        orderId: locked.id,
        receipt: stampReceipt(locked.payments),
        at: cards.orders.now(),
      });
    })
    .catch((error: unknown) => {
      if (isUniqueViolation(error)) throw alreadyStamped(order.orderNumber);
      throw error;
    });
  return { card: (await loyaltyCardById(cards.orders.prisma, card.id))!, program, activity };
}

function alreadyStamped(orderNumber: string): AppError {
  return new AppError('already_stamped', `Order ${orderNumber} has stamped a loyalty card already: an order stamps once`, {
    field: 'order_number',
  });
}
