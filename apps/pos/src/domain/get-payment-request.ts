import type { GetPaymentRequestResponse } from '@ctk/proto/ctk/pos/v1/pos';
import { AppError } from '@ctk/shared';
import type { OrderContext } from '../orders/order-context.js';
import { receiptScriptHex } from '../orders/order-receipt.js';
import { dueOutputs, statusAt } from '../orders/order-state.js';
import { orderUrls } from '../orders/payment-uris.js';
import { getOrder } from './get-order.js';

/** BIP270's network name for BSV. */
const NETWORK = 'bitcoin-sv';

/**
 * The BIP270 PaymentRequest of an open order: the order's output for what is still due (and the referrer's
 * commission beside it, decision 0040), then the receipt output (decision 0008) committing to the merchant,
 * the order number and the hash of the lines.
 */
export async function getPaymentRequest(context: OrderContext, orderNumber: string, publicUrl: string): Promise<GetPaymentRequestResponse> {
  const order = await getOrder(context, orderNumber);
  const now = context.now();
  const status = statusAt(order, now);
  if (status === 'expired') throw new AppError('payment_expired', `Order ${order.orderNumber} expired at ${order.expiresAt.toISOString()}`);
  if (status !== 'open') throw new AppError('failed_precondition', `Order ${order.orderNumber} is ${status}: it takes no payment`);
  return {
    network: NETWORK,
    outputs: [
      ...dueOutputs(order, now).map(({ script, minSatoshis }, index) => ({
        script,
        amount: minSatoshis,
        description: index === 0 ? `Order ${order.orderNumber} at ${order.merchantHandle}` : 'Referral commission',
      })),
      { script: receiptScriptHex(order), amount: 0n, description: 'Receipt' },
    ],
    creationTimestamp: BigInt(Math.floor(order.createdAt.getTime() / 1000)),
    expirationTimestamp: BigInt(Math.floor(order.expiresAt.getTime() / 1000)),
    memo: `Order ${order.orderNumber} at ${order.merchantHandle}`,
    paymentUrl: orderUrls(publicUrl, order.orderNumber).paymentUrl,
    merchantData: JSON.stringify({ order_number: order.orderNumber }),
  };
}
