import { AppError, enqueuePaymentEvent, validate } from '@ctk/shared';
import { z } from 'zod';
import { transactionHex, txidOf } from '../orders/bip270-transaction.js';
import { claimRefund, releaseRefundClaim, updateRefund } from '../data/refund-repository.js';
import type { OrderContext } from '../orders/order-context.js';
import { CLAIM_STALE_MS } from '../orders/payment-claim.js';
import { refundPaidEvent } from '../refunds/refund-event.js';
import { isClaimed, refundStatusAt } from '../refunds/refund-state.js';
import type { PaymentAck } from './pay-order.js';
import { getRefund } from './get-refund.js';

const paymentSchema = z.object({
  refundId: z.string(),
  transaction: transactionHex,
});

/**
 * BIP270: the merchant's wallet's Payment of a pending refund (decision 0033). It claims the refund (one
 * transaction at a time is broadcast for it), has p2p verify that the transaction pays the customer's
 * output at least the refund's satoshis and broadcast it, then, with the order's row locked, marks the
 * refund paid with its txid and writes `payment.refunded` to the outbox in the same transaction. The same
 * transaction again is acknowledged without recording anything twice; another for a paid, cancelled or
 * expired refund is refused before anything reaches the chain.
 */
export async function payRefund(context: OrderContext, input: z.input<typeof paymentSchema>): Promise<PaymentAck> {
  const payment = validate(paymentSchema, input);
  const found = await getRefund(context, payment.refundId);
  const txid = txidOf(payment.transaction);
  const ack = { transaction: payment.transaction, memo: `The refund of order ${found.order.orderNumber} is paid.`, error: 0 };
  if (found.txid === txid) return ack;
  const now = context.now();
  if (!(await claimRefund(context.prisma, found.id, txid, now, new Date(now.getTime() - CLAIM_STALE_MS)))) {
    const refund = await getRefund(context, found.id);
    if (refund.txid === txid) return ack;
    const status = refundStatusAt(refund, now);
    if (status === 'expired') throw new AppError('payment_expired', `Refund ${refund.id} expired at ${refund.expiresAt.toISOString()}`);
    if (status === 'paid') {
      throw new AppError(
        'failed_precondition',
        `Refund ${refund.id} is already paid by transaction ${refund.txid}: it takes no other payment`,
        {
          reason: 'paid',
        },
      );
    }
    if (isClaimed(refund, now, txid)) {
      throw new AppError(
        'failed_precondition',
        `Refund ${refund.id} is being paid by transaction ${refund.claimedTxid}: it takes no other payment`,
        { reason: 'being_paid' },
      );
    }
    throw new AppError('failed_precondition', `Refund ${refund.id} is ${status}: it takes no payment`, { reason: status });
  }
  let paid = false;
  try {
    const settled = await context.p2p.settlePayment({
      org: { id: found.organizationId, handle: found.order.merchantHandle },
      claim: { purpose: 'pos.refund', sourceId: found.id },
      expected: [{ script: found.script, minSatoshis: found.satoshis }],
      transaction: payment.transaction,
      txid: '',
    });
    paid = await context.orders.locked(
      found.orderId,
      async (tx, order) => {
        const refund = order.refunds.find((known) => known.id === found.id)!;
        if (refund.status === 'paid') return refund.txid === settled.txid;
        // Cancelled or expired while it was broadcast is impossible under the claim; refused all the same.
        if (refund.status !== 'pending') return false;
        const at = context.now();
        const updated = await updateRefund(tx, refund.id, {
          status: 'paid',
          txid: settled.txid,
          paidAt: at,
          claimedTxid: null,
          claimedAt: null,
        });
        await enqueuePaymentEvent(tx, refundPaidEvent(order, updated, settled.txid, at));
        return true;
      },
      { patient: true },
    );
  } finally {
    if (!paid) await releaseRefundClaim(context.prisma, found.id, txid).catch(() => undefined);
  }
  if (!paid) throw new AppError('failed_precondition', `Refund ${found.id} took no payment`, { reason: 'not_pending' });
  context.notifier.changed(found.orderId);
  context.eventsCommitted();
  return ack;
}
