import { appendStamp, loyaltyCardById, stampOfOrder, type LoyaltyActivity } from '../data/loyalty-card-repository.js';
import { findLoyaltyProgram } from '../data/loyalty-program-repository.js';
import type { OrderTransaction, OrderWithParts } from '../data/order-repository.js';
import { MAX_CARD_STAMPS, stampReceipt, stampsEarned } from './loyalty-rules.js';

/**
 * An order created with `loyalty_card_id` stamps that card in the transaction that marks it paid (the
 * order's row is locked there, and that happens once per order), bound to the receipt output of the
 * payment that carried it. A payment is never refused for a stamp: when the program is paused, the order
 * earns no stamp, or the order stamped already, it stamps nothing, and the unique order id in the ledger
 * keeps a redelivery from stamping twice.
 */
export async function stampPaidOrder(tx: OrderTransaction, order: OrderWithParts, at: Date): Promise<LoyaltyActivity | null> {
  if (!order.loyaltyCardId) return null;
  const program = await findLoyaltyProgram(tx, order.organizationId);
  if (!program?.active) return null;
  const stamps = stampsEarned(program, order);
  if (stamps === 0 || (await stampOfOrder(tx, order.id))) return null;
  const card = await loyaltyCardById(tx, order.loyaltyCardId);
  if (!card || card.organizationId !== order.organizationId || card.stamps + stamps > MAX_CARD_STAMPS) return null;
  return appendStamp(tx, { cardId: card.id, stamps, orderId: order.id, receipt: stampReceipt(order.payments), at });
}
