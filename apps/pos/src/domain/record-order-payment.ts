import { AppError, enqueuePaymentEvent, isUniqueViolation } from '@ctk/shared';
import { takeFromStock } from '../data/item-repository.js';
import { cancelLinkSiblings, insertOrderPayment, lockOrder, updateOrder, type OrderWithParts } from '../data/order-repository.js';
import { payLinkUses } from '../data/pay-link-repository.js';
import type { OrderContext } from '../orders/order-context.js';
import { stampPaidOrder } from '../loyalty/stamp-paid-order.js';
import { paidOrderEvent } from '../prepaid/paid-order-event.js';
import { releaseOrderCards } from '../prepaid/release-order-cards.js';

export type SettledPayment = {
  txid: string;
  /** What it pays toward the order: to the shop's output, and to the referrer's up to the commission (decision 0040). */
  satoshis: bigint;
  /** The part of `satoshis` paid to the referrer. */
  commissionSatoshis?: bigint;
  via: 'payment_request' | 'address' | 'staff';
  /** The chain's state of the transaction: pending, seen, mined, ... */
  status: string;
  blockHeight: number | null;
  /** The order's receipt output in the transaction, when pos saw the transaction carry it (BIP270). */
  receiptVout?: number | null;
  /** The P2PKH address the payer's wallet gave as BIP270's refundTo (decision 0033). */
  refundTo?: string | null;
};

/**
 * Records a settled payment on the order with its row locked: the same txid again records nothing; the
 * payment that brings what is paid to the satoshis due makes the order paid exactly once (confirmed at
 * once when every payment is already mined), with its flags, takes its units from the stock of tracked items,
 * stamps the loyalty card it was created with (decision 0017), and writes `payment.received` (or, for an
 * order selling a prepaid card, activates it and writes `prepaid.issued`) to the outbox in the same
 * transaction. Payments after that only add to what is paid (and may flag it overpaid); a payment to an
 * order paid at a provider meanwhile, or to a cancelled one, is kept and flagged `refund_due`, and counts
 * for nothing. An order of a pay link with a use limit is recorded with the link's row locked (decision
 * 0024): the payment completing it takes a use, and the one taking the last cancels the link's other
 * unpaid orders in the same transaction; one completing it after every use was taken is kept for a refund
 * and the order cancelled, so a limited link is never paid more than its uses. `known` is the order as read before:
 * its id and pay link (which never changes).
 */
export async function recordOrderPayment(
  context: OrderContext,
  known: Pick<OrderWithParts, 'id' | 'payLinkId'>,
  payment: SettledPayment,
): Promise<OrderWithParts> {
  let cancelled: string[] = [];
  // The transaction without Prisma's client (decision 0048): every payment of an order comes this way.
  const order = await context.sql
    .transaction(async (tx) => {
      const order = await lockOrder(tx, known.id, known.payLinkId);
      if (!order) throw new AppError('not_found', 'The order is gone');
      if (order.payments.some((recorded) => recorded.txid === payment.txid)) return order;
      const now = context.now();
      const late = now > order.expiresAt;
      const recorded = await insertOrderPayment(tx, {
        orderId: order.id,
        txid: payment.txid,
        satoshis: payment.satoshis,
        via: payment.via,
        status: payment.status,
        blockHeight: payment.blockHeight,
        late,
        receivedAt: now,
        receiptVout: payment.receiptVout ?? null,
        refundTo: payment.refundTo ?? null,
      });
      const paidSatoshis = order.paidSatoshis + payment.satoshis;
      const flags = new Set(order.flags);
      // Paid at a provider first (mark-order-paid-elsewhere.ts), or cancelled (by staff, or by the payment that
      // took its pay link's last use): this bitcoin is kept on the order, counts for nothing, and is flagged for
      // the merchant to refund.
      if (order.status === 'paid_elsewhere' || order.status === 'cancelled') flags.add('refund_due');
      else if (paidSatoshis > order.satoshis) flags.add('overpaid');
      let completes = (order.status === 'open' || order.status === 'expired') && paidSatoshis >= order.satoshis;
      const uses = completes && order.payLinkId ? await payLinkUses(tx, order.payLinkId, order.id) : null;
      // Every use of its link was taken before (by a late payment or staff): this one is kept for a refund.
      const usedUp = uses !== null && uses.paid >= uses.max;
      if (usedUp) {
        completes = false;
        flags.delete('paid_partial');
        flags.add('refund_due');
      }
      if (completes) {
        flags.delete('paid_partial');
        if (late) flags.add('paid_late');
      }
      const allMined = [...order.payments.map((earlier) => earlier.status), payment.status].every((status) => status === 'mined');
      const status = completes ? (allMined ? 'confirmed' : 'paid') : usedUp ? 'cancelled' : order.status;
      const released = usedUp ? await releaseOrderCards(tx, order, now) : undefined;
      const changes = {
        paidSatoshis,
        ...(payment.commissionSatoshis ? { commissionPaidSatoshis: order.commissionPaidSatoshis + payment.commissionSatoshis } : {}),
        flags: [...flags],
        status,
        updatedAt: now,
        // The BIP270 payment that claimed the order for this transaction (decision 0015) ends its claim here.
        ...(order.claimedTxid === payment.txid ? { claimedTxid: null, claimedAt: null } : {}),
        ...(completes ? { paidAt: now, ...(status === 'confirmed' ? { confirmedAt: now } : {}) } : {}),
        ...(usedUp ? { cancelledAt: now, ...released?.changes } : {}),
      };
      await updateOrder(tx, order, changes);
      // The row is locked: the order is what was read, with these changes and this payment.
      const updated: OrderWithParts = { ...order, ...changes, payments: [...order.payments, recorded] };
      // This payment takes the link's last use: its other unpaid orders are cancelled with it.
      if (completes && uses && uses.paid + 1n >= uses.max && order.payLinkId) {
        cancelled = await cancelLinkSiblings(tx, order.payLinkId, order.id, now, async (sibling) => {
          return (await releaseOrderCards(tx, sibling, now)).changes;
        });
      }
      if (completes) {
        await takeFromStock(tx, updated.organizationId, updated.lines);
        await stampPaidOrder(tx, updated, now);
        // payment.received for what prepaid cards did not pay, or prepaid.issued for an order selling a card (decision 0017).
        const event = await paidOrderEvent(tx, updated, payment.txid, now);
        if (event) await enqueuePaymentEvent(tx, event);
      }
      return updated;
    })
    .catch((error: unknown) => {
      if (isUniqueViolation(error))
        throw new AppError('txid_already_used', `Transaction ${payment.txid} already paid another order`, { field: 'txid' });
      throw error;
    });
  context.notifier.changed(order.id);
  for (const id of cancelled) context.notifier.changed(id);
  // Every payment recorded changes the order (ctk.orders.changed), whatever else it emitted.
  context.eventsCommitted();
  return order;
}
