import type { ExpectedPayment } from '@ctk/proto/ctk/p2p/v1/p2p';
import type { OrderWithParts } from '../data/order-repository.js';
import type { OrderContext } from '../orders/order-context.js';
import { receiptVoutOf } from '../orders/order-receipt.js';
import { recordOrderPayment, type SettledPayment } from './record-order-payment.js';

export type PaymentSource =
  { transaction: string; txid?: never; refundTo?: string | null } | { txid: string; transaction?: never; refundTo?: never };

/**
 * Has p2p verify (and, for a submitted transaction, broadcast) a payment to the order's output and record
 * its txid under the order's claim (a txid pays one claim), then records it on the order. `expected`
 * names what the transaction must pay; the first is the order's output.
 */
export async function settleOrderPayment(
  context: OrderContext,
  order: OrderWithParts,
  source: PaymentSource,
  expected: ExpectedPayment[],
  via: SettledPayment['via'],
): Promise<OrderWithParts> {
  const settled = await context.p2p.settlePayment({
    org: { id: order.organizationId, handle: order.merchantHandle },
    claim: { purpose: 'pos.order', sourceId: order.id },
    expected,
    transaction: source.transaction ?? '',
    txid: source.txid ?? '',
  });
  return recordOrderPayment(context, order.id, {
    txid: settled.txid,
    satoshis: settled.paidSatoshis[0] ?? 0n,
    via,
    status: settled.status,
    blockHeight: settled.blockHeight ?? null,
    receiptVout: source.transaction ? receiptVoutOf(source.transaction, order) : null,
    refundTo: source.refundTo ?? null,
  });
}
