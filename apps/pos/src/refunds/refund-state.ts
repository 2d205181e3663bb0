import type { OrderRefund, OrderWithParts } from '../data/order-repository.js';
import { CLAIM_STALE_MS } from '../orders/payment-claim.js';
import type { RefundFigures, RefundableLine } from './refund-figures.js';

/** How long a refund waits for the merchant's wallet to pay it before its reservation ends (decision 0033). */
export const REFUND_TTL_MS = 15 * 60_000;

/** A refund's lines as kept: the line's index and its units as a string of digits. */
export type StoredRefundLine = { line: number; quantity: string };

export type RefundStatus = 'pending' | 'paid' | 'cancelled' | 'expired';

/**
 * The refund's status at `now`: a pending one past its expiry is expired, unless a payment of it is being
 * verified and broadcast (a recent claim), which may still make it paid.
 */
export function refundStatusAt(refund: OrderRefund, now: Date): RefundStatus {
  if (refund.status !== 'pending') return refund.status as RefundStatus;
  if (refund.expiresAt > now) return 'pending';
  return isClaimed(refund, now) ? 'pending' : 'expired';
}

/** Whether a payment of the refund (any but `txid`, when given) is being verified and broadcast at `now`. */
export function isClaimed(refund: Pick<OrderRefund, 'claimedTxid' | 'claimedAt'>, now: Date, txid?: string): boolean {
  if (!refund.claimedTxid || !refund.claimedAt || refund.claimedTxid === txid) return false;
  return now.getTime() - refund.claimedAt.getTime() < CLAIM_STALE_MS;
}

/** The refunds that hold part of the order at `now`: pending (unexpired) and paid. */
export function liveRefunds(order: OrderWithParts, now: Date): OrderRefund[] {
  return order.refunds.filter((refund) => {
    const status = refundStatusAt(refund, now);
    return status === 'pending' || status === 'paid';
  });
}

export function figuresOf(refund: OrderRefund): RefundFigures {
  return { amountMinor: refund.amountMinor, taxMinor: refund.taxMinor, tipMinor: refund.tipMinor, satoshis: refund.satoshis };
}

export function storedLines(refund: Pick<OrderRefund, 'lines'>): StoredRefundLine[] {
  return Array.isArray(refund.lines) ? (refund.lines as StoredRefundLine[]) : [];
}

/** The order's lines with the units live refunds give back of each. */
export function refundableLines(order: OrderWithParts, live: OrderRefund[]): RefundableLine[] {
  const refunded = order.lines.map(() => 0n);
  for (const refund of live)
    for (const { line, quantity } of storedLines(refund)) refunded[line] = (refunded[line] ?? 0n) + BigInt(quantity);
  return order.lines.map((line, index) => ({
    quantity: line.quantity,
    totalMinor: line.totalMinor,
    refundedQuantity: refunded[index] ?? 0n,
  }));
}

/** Minor units the order's live refunds hold (`paid`: those paid only). */
export function refundedMinor(order: OrderWithParts, now: Date, paid = false): bigint {
  return order.refunds
    .filter((refund) => (paid ? refund.status === 'paid' : liveRefunds(order, now).includes(refund)))
    .reduce((total, refund) => total + refund.amountMinor, 0n);
}

/** Where the refund's BIP270 request and payment are, under the gateway's public base URL. */
export function refundUrls(publicUrl: string, refundId: string) {
  const base = `${publicUrl.replace(/\/+$/, '')}/api/pos/refunds/${refundId}`;
  const paymentRequestUrl = `${base}/payment-request`;
  return { paymentRequestUrl, paymentUrl: `${base}/payment`, paymentUri: `pay:?r=${encodeURIComponent(paymentRequestUrl)}` };
}
