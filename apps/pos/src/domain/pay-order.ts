import { networkAddress } from '@ctk/chain';
import { AppError, countPayment, validate } from '@ctk/shared';
import { z } from 'zod';
import { transactionHex, txidOf } from '../orders/bip270-transaction.js';
import type { OrderContext } from '../orders/order-context.js';
import { receiptScriptHex } from '../orders/order-receipt.js';
import { dueOutputs, statusAt } from '../orders/order-state.js';
import type { OrderWithParts } from '../data/order-repository.js';
import { beingPaid, CLAIM_STALE_MS, isClaimedByAnother } from '../orders/payment-claim.js';
import { getOrder } from './get-order.js';
import { recordedVia, settleOrderPayment } from './settle-order-payment.js';

const paymentSchema = z.object({
  orderNumber: z.string(),
  transaction: transactionHex,
  memo: z.string().max(1000),
  // Echoed in the PaymentACK, never kept.
  merchantData: z.string().max(10_000),
  // Kept when it is a P2PKH address of the chain's network: a refund of the order goes there (decision 0033).
  refundTo: z.string().max(1000),
});

export type PaymentAck = { transaction: string; memo: string; error: number };

/**
 * BIP270: a wallet's Payment for an open, unexpired order. The transaction must pay the order's output
 * what is due (and the referrer's commission, decision 0040) and carry the receipt output; p2p verifies, broadcasts and records it, then the order does.
 * One transaction at a time is broadcast for an order: the payment first claims the order (decision 0015),
 * so that of payments arriving at once one is broadcast and the others are refused as a second payment
 * is, before anything reaches the chain; the claim ends with the payment, recorded or refused. The same
 * transaction again (a wallet's retry) is acknowledged without recording anything twice. Each is counted in
 * ctk_payments_total (path bip270): accepted, duplicate (such a retry, or one the order watcher recorded
 * first), refused or error.
 */
export async function payOrder(context: OrderContext, input: z.input<typeof paymentSchema>): Promise<PaymentAck> {
  const paid = await countPayment(
    'bip270',
    () => pay(context, input),
    (answer) => answer.outcome,
  );
  return paid.ack;
}

async function pay(
  context: OrderContext,
  input: z.input<typeof paymentSchema>,
): Promise<{ ack: PaymentAck; outcome: 'accepted' | 'duplicate' }> {
  const payment = validate(paymentSchema, input);
  const found = await getOrder(context, payment.orderNumber);
  const txid = txidOf(payment.transaction);
  const ack = { transaction: payment.transaction, memo: `Order ${found.orderNumber} is paid. Thank you.`, error: 0 };
  if (found.payments.some((known) => known.txid === txid)) return { ack, outcome: 'duplicate' };
  const order = await claimOrder(context, found, txid);
  if (!order) return { ack, outcome: 'duplicate' };
  let settled: OrderWithParts | undefined;
  try {
    const expected = [...dueOutputs(order, context.now()), { script: receiptScriptHex(order), minSatoshis: 0n }];
    const refundTo = refundAddress(context, payment.refundTo);
    settled = await settleOrderPayment(context, order, { transaction: payment.transaction, refundTo }, expected, 'payment_request');
    // Paid at a provider while this transaction was on its way: it is kept for a refund, and the wallet is told.
    if (settled.status === 'paid_elsewhere') {
      throw new AppError(
        'failed_precondition',
        `Order ${order.orderNumber} is paid_elsewhere (at the ${settled.paidElsewhereBy}): this payment is kept for the merchant to refund`,
        { reason: 'paid_elsewhere', refund_due: true },
      );
    }
    // Cancelled while this transaction was on its way (its pay link's last use taken by a payment by
    // address, decision 0024): it is kept for a refund, and the wallet is told.
    if (settled.status === 'cancelled') {
      throw new AppError(
        'failed_precondition',
        `Order ${order.orderNumber} was cancelled while this payment was broadcast: it is kept for the merchant to refund`,
        { reason: 'cancelled', refund_due: true },
      );
    }
    return { ack, outcome: recordedVia(settled, txid) === 'payment_request' ? 'accepted' : 'duplicate' };
  } finally {
    // Recorded, the payment's transaction ended the claim (recordOrderPayment); refused, or recorded before by the
    // order watcher, the claim ends here and the order can take another payment at once. A stale claim frees itself anyway.
    if (settled?.claimedTxid !== null) await context.orders.releasePaymentClaim(order.id, txid).catch(() => undefined);
  }
}

/**
 * Claims the order for `txid` and answers it as claimed; undefined when `txid` has paid it meanwhile (a
 * retry). Refused: an expired order (422 payment_expired), one paid, cancelled or being paid by another
 * transaction (409 failed_precondition).
 */
async function claimOrder(context: OrderContext, found: OrderWithParts, txid: string): Promise<OrderWithParts | undefined> {
  const now = context.now();
  const claimed = await context.orders.claimPayment(found.id, txid, now, new Date(now.getTime() - CLAIM_STALE_MS), found.payLinkId);
  const order = (await context.orders.byId(found.id)) ?? found;
  if (order.payments.some((known) => known.txid === txid)) {
    if (claimed) await context.orders.releasePaymentClaim(order.id, txid);
    return undefined;
  }
  if (claimed) return order;
  const status = statusAt(order, now);
  if (status === 'expired') throw new AppError('payment_expired', `Order ${order.orderNumber} expired at ${order.expiresAt.toISOString()}`);
  if (status === 'cancelled' && order.payLinkId) {
    throw new AppError(
      'failed_precondition',
      `Order ${order.orderNumber} is cancelled: its pay link was paid by another order, or the merchant cancelled it; it takes no payment`,
      { reason: 'cancelled' },
    );
  }
  if (status !== 'open') throw new AppError('failed_precondition', `Order ${order.orderNumber} is ${status}: it takes no payment`);
  if (isClaimedByAnother(order, now, txid)) throw beingPaid(order, 'it takes no other payment');
  // Open and unclaimed, yet not claimed: its pay link's last use is being paid by another of its orders (decision 0024).
  throw new AppError(
    'failed_precondition',
    `Order ${order.orderNumber}: the last use of its pay link is being paid by another order; it takes no payment now, try again in a moment`,
    { reason: 'pay_link_being_paid' },
  );
}

/**
 * BIP270's refundTo as pos keeps it: a P2PKH address of the chain's network, else nothing (a wallet giving
 * another form, an output list or a paymail, is not refused for it: the merchant names the address then).
 */
function refundAddress(context: OrderContext, refundTo: string): string | null {
  if (!refundTo.trim()) return null;
  try {
    return networkAddress(refundTo.trim(), context.network, 'refundTo');
  } catch {
    return null;
  }
}
