import { AppError, enqueuePaymentEvent, isUniqueViolation } from '@ctk/shared';
import { takeFromStock } from '../data/item-repository.js';
import type { OrderWithParts } from '../data/order-repository.js';
import type { OrderContext } from '../orders/order-context.js';
import { stampPaidOrder } from '../loyalty/stamp-paid-order.js';
import { paidOrderEvent } from '../prepaid/paid-order-event.js';

export type SettledPayment = {
  txid: string;
  satoshis: bigint;
  via: 'payment_request' | 'address' | 'staff';
  /** The chain's state of the transaction: pending, seen, mined, ... */
  status: string;
  blockHeight: number | null;
  /** The order's receipt output in the transaction, when pos saw the transaction carry it (BIP270). */
  receiptVout?: number | null;
};

/**
 * Records a settled payment on the order with its row locked: the same txid again records nothing; the
 * payment that brings what is paid to the satoshis due makes the order paid exactly once (confirmed at
 * once when every payment is already mined), with its flags, takes its units from the stock of tracked items,
 * stamps the loyalty card it was created with (decision 0017), and writes `payment.received` (or, for an
 * order selling a prepaid card, activates it and writes `prepaid.issued`) to the outbox in the same
 * transaction. Payments after that only add to what is paid (and may flag it overpaid); a payment to an
 * order paid at a provider meanwhile is kept and flagged `refund_due`, and counts for nothing.
 */
export async function recordOrderPayment(context: OrderContext, orderId: string, payment: SettledPayment): Promise<OrderWithParts> {
  let emitted = false;
  const order = await context.orders
    .locked(orderId, async (tx, order) => {
      if (order.payments.some((known) => known.txid === payment.txid)) return order;
      if (order.status === 'cancelled') throw new AppError('failed_precondition', `Order ${order.orderNumber} was cancelled`);
      const now = context.now();
      const late = now > order.expiresAt;
      await tx.orderPayment.create({
        data: {
          orderId,
          txid: payment.txid,
          satoshis: payment.satoshis,
          via: payment.via,
          status: payment.status,
          blockHeight: payment.blockHeight,
          late,
          receivedAt: now,
          receiptVout: payment.receiptVout ?? null,
        },
      });
      const paidSatoshis = order.paidSatoshis + payment.satoshis;
      const flags = new Set(order.flags);
      // Paid at a provider first (mark-order-paid-elsewhere.ts): this bitcoin is kept on the order, counts for
      // nothing, and is flagged for the merchant to refund.
      if (order.status === 'paid_elsewhere') flags.add('refund_due');
      else if (paidSatoshis > order.satoshis) flags.add('overpaid');
      const completes = (order.status === 'open' || order.status === 'expired') && paidSatoshis >= order.satoshis;
      if (completes) {
        flags.delete('paid_partial');
        if (late) flags.add('paid_late');
      }
      const allMined = [...order.payments.map((known) => known.status), payment.status].every((status) => status === 'mined');
      const status = completes ? (allMined ? 'confirmed' : 'paid') : order.status;
      const updated = await tx.order.update({
        where: { id: orderId },
        data: {
          paidSatoshis,
          flags: [...flags],
          status,
          updatedAt: now,
          ...(completes ? { paidAt: now, ...(status === 'confirmed' ? { confirmedAt: now } : {}) } : {}),
        },
        include: { lines: { orderBy: { position: 'asc' } }, payments: { orderBy: { receivedAt: 'asc' } } },
      });
      if (completes) {
        await takeFromStock(tx, updated.organizationId, updated.lines);
        await stampPaidOrder(tx, updated, now);
        // payment.received for what prepaid cards did not pay, or prepaid.issued for an order selling a card (decision 0017).
        const event = await paidOrderEvent(tx, updated, payment.txid, now);
        if (event) await enqueuePaymentEvent(tx, event);
        emitted = event !== undefined;
      }
      return updated;
    })
    .catch((error: unknown) => {
      if (isUniqueViolation(error))
        throw new AppError('txid_already_used', `Transaction ${payment.txid} already paid another order`, { field: 'txid' });
      throw error;
    });
  context.notifier.changed(orderId);
  if (emitted) context.eventsCommitted();
  return order;
}
