import type { GetRefundPaymentRequestResponse } from '@ctk/proto/ctk/pos/v1/pos';
import { AppError } from '@ctk/shared';
import type { OrderContext } from '../orders/order-context.js';
import { refundStatusAt, refundUrls } from '../refunds/refund-state.js';
import { getRefund } from './get-refund.js';

/**
 * The BIP270 PaymentRequest of a pending refund (decision 0033): one output paying the customer's address
 * the refund's satoshis, expiring with the refund. Public, as an order's is: only a transaction paying
 * that output settles it.
 */
export async function getRefundPaymentRequest(
  context: OrderContext,
  refundId: string,
  publicUrl: string,
): Promise<GetRefundPaymentRequestResponse> {
  const refund = await getRefund(context, refundId);
  const status = refundStatusAt(refund, context.now());
  if (status === 'expired') throw new AppError('payment_expired', `Refund ${refund.id} expired at ${refund.expiresAt.toISOString()}`);
  if (status !== 'pending')
    throw new AppError('failed_precondition', `Refund ${refund.id} is ${status}: it takes no payment`, { reason: status });
  const memo = `Refund of order ${refund.order.orderNumber} at ${refund.order.merchantHandle}`;
  return {
    network: 'bitcoin-sv',
    outputs: [{ script: refund.script, amount: refund.satoshis, description: memo }],
    creationTimestamp: BigInt(Math.floor(refund.createdAt.getTime() / 1000)),
    expirationTimestamp: BigInt(Math.floor(refund.expiresAt.getTime() / 1000)),
    memo,
    paymentUrl: refundUrls(publicUrl, refund.id).paymentUrl,
    merchantData: JSON.stringify({ refund_id: refund.id, order_number: refund.order.orderNumber }),
  };
}
