import type { OrderRefund as OrderRefundMessage } from '@ctk/proto/ctk/pos/v1/pos';
import type { OrderRefund, OrderWithParts } from '../data/order-repository.js';
import { refundStatusAt, refundUrls, storedLines } from '../refunds/refund-state.js';

/** A refund as the contract answers it (decision 0033), with the link the merchant's wallet pays. */
export function toRefundMessage(
  refund: OrderRefund,
  order: Pick<OrderWithParts, 'orderNumber' | 'currency'>,
  publicUrl: string,
  now: Date,
): OrderRefundMessage {
  const urls = refundUrls(publicUrl, refund.id);
  return {
    id: refund.id,
    orderNumber: order.orderNumber,
    status: refundStatusAt(refund, now),
    currency: order.currency,
    amountMinor: refund.amountMinor,
    taxMinor: refund.taxMinor,
    tipMinor: refund.tipMinor,
    satoshis: refund.satoshis,
    address: refund.address,
    lines: storedLines(refund).map((line) => ({ line: line.line, quantity: BigInt(line.quantity) })),
    reason: refund.reason,
    paymentUri: urls.paymentUri,
    paymentRequestUrl: urls.paymentRequestUrl,
    createdAt: refund.createdAt.toISOString(),
    expiresAt: refund.expiresAt.toISOString(),
    paidAt: refund.paidAt?.toISOString(),
    cancelledAt: refund.cancelledAt?.toISOString(),
    txid: refund.txid ?? undefined,
  };
}
