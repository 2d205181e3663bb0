import type { SqlQueries } from '@ctk/shared';
import { appendStamp, stampingOf, type LoyaltyActivity } from '../data/loyalty-card-repository.js';
import type { OrderWithParts } from '../data/order-repository.js';
import { MAX_CARD_STAMPS, stampReceipt, stampsEarned } from './loyalty-rules.js';

/**
 * An order created with `loyalty_card_id` stamps that card in the transaction that marks it paid (the
 * order's row is locked there, and that happens once per order), bound to the receipt output of the
 * payment that carried it. A payment is never refused for a stamp: when the program is paused, the order
 * earns no stamp, or the order stamped already, it stamps nothing, and the unique order id in the ledger
 * keeps a redelivery from stamping twice.
 */
export async function stampPaidOrder(tx: SqlQueries, order: OrderWithParts, at: Date): Promise<LoyaltyActivity | null> {
  const cardId = order.loyaltyCardId;
  if (!cardId) return null;
  const stamping = await stampingOf(tx, { id: order.id, organizationId: order.organizationId, loyaltyCardId: cardId });
  if (!stamping?.program.active) return null;
  const { program, card, stamped } = stamping;
  const stamps = stampsEarned(program, order);
  if (stamps === 0 || stamped) return null;
  if (!card || card.organizationId !== order.organizationId || card.stamps + stamps > MAX_CARD_STAMPS) return null;
  return appendStamp(tx, { cardId, stamps, orderId: order.id, receipt: stampReceipt(order.payments), at });
}
