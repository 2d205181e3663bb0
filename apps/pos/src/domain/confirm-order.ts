import { AppError, type Org } from '@ctk/shared';
import type { OrderWithParts } from '../data/order-repository.js';
import type { OrderContext } from '../orders/order-context.js';
import { statusAt } from '../orders/order-state.js';
import { getOrgOrder } from './get-order.js';
import { settleOrderPayment } from './settle-order-payment.js';

const TXID = /^[0-9a-f]{64}$/;

/**
 * Staff: a transaction the customer says paid the order. p2p finds it on the chain and checks it pays
 * the order's output; any amount counts towards what is due. Past the expiry it still pays the order
 * (flagged paid late); the same txid again answers the order as it is. A payment to a cancelled order's
 * output is recorded too, kept for a refund (`refund_due`): it reached the chain and must not be lost.
 */
export async function confirmOrder(context: OrderContext, org: Org, input: { orderNumber: string; txid: string }): Promise<OrderWithParts> {
  const txid = input.txid.trim().toLowerCase();
  if (!TXID.test(txid)) throw new AppError('validation_failed', 'txid must be 64 hexadecimal characters', { field: 'txid' });
  const order = await getOrgOrder(context, org, input.orderNumber);
  if (order.payments.some((known) => known.txid === txid)) return order;
  const status = statusAt(order, context.now());
  if (status !== 'open' && status !== 'expired' && status !== 'cancelled') {
    throw new AppError('failed_precondition', `Order ${order.orderNumber} is ${status}: it takes no payment`);
  }
  return settleOrderPayment(context, order, { txid }, [{ script: order.script, minSatoshis: 1n }], 'staff');
}
