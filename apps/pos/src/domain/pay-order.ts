import { decodeTransaction, hexToBytes } from '@ctk/chain';
import { AppError, validate } from '@ctk/shared';
import { z } from 'zod';
import type { OrderContext } from '../orders/order-context.js';
import { receiptScriptHex } from '../orders/order-receipt.js';
import { dueSatoshis, statusAt } from '../orders/order-state.js';
import { getOrder } from './get-order.js';
import { settleOrderPayment } from './settle-order-payment.js';

/** A transaction as hex: 10 MB of bytes at most. */
const MAX_TRANSACTION_HEX = 20_000_000;

const paymentSchema = z.object({
  orderNumber: z.string(),
  transaction: z
    .string()
    .min(1, 'transaction is required: the payment transaction in hex')
    .max(MAX_TRANSACTION_HEX, 'transaction is too large'),
  memo: z.string().max(1000),
});

export type PaymentAck = { transaction: string; memo: string; error: number };

/**
 * BIP270: a wallet's Payment for an open, unexpired order. The transaction must pay the order's output
 * what is due and carry the receipt output; p2p verifies, broadcasts and records it, then the order does.
 * The same transaction again (a wallet's retry) is acknowledged without recording anything twice.
 */
export async function payOrder(context: OrderContext, input: z.input<typeof paymentSchema>): Promise<PaymentAck> {
  const payment = validate(paymentSchema, input);
  const order = await getOrder(context, payment.orderNumber);
  const txid = txidOf(payment.transaction);
  const ack = { transaction: payment.transaction, memo: `Order ${order.orderNumber} is paid. Thank you.`, error: 0 };
  if (order.payments.some((known) => known.txid === txid)) return ack;
  const now = context.now();
  const status = statusAt(order, now);
  if (status === 'expired') throw new AppError('payment_expired', `Order ${order.orderNumber} expired at ${order.expiresAt.toISOString()}`);
  if (status !== 'open') throw new AppError('failed_precondition', `Order ${order.orderNumber} is ${status}: it takes no payment`);
  const expected = [
    { script: order.script, minSatoshis: dueSatoshis(order, now) },
    { script: receiptScriptHex(order), minSatoshis: 0n },
  ];
  const settled = await settleOrderPayment(context, order, { transaction: payment.transaction }, expected, 'payment_request');
  // Paid at a provider while this transaction was on its way: it is kept for a refund, and the wallet is told.
  if (settled.status === 'paid_elsewhere') {
    throw new AppError(
      'failed_precondition',
      `Order ${order.orderNumber} is paid_elsewhere (at the ${settled.paidElsewhereBy}): this payment is kept for the merchant to refund`,
      { reason: 'paid_elsewhere', refund_due: true },
    );
  }
  return ack;
}

function txidOf(hex: string): string {
  try {
    return decodeTransaction(hexToBytes(hex)).txid;
  } catch (error) {
    throw new AppError(
      'validation_failed',
      `transaction is not a transaction in hex (raw, EF or BEEF): ${error instanceof Error ? error.message : 'unreadable'}`,
      {
        field: 'transaction',
      },
    );
  }
}
