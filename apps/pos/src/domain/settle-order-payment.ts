import type { ExpectedPayment } from '@ctk/proto/ctk/p2p/v1/p2p';
import { AppError } from '@ctk/shared';
import type { OrderWithParts } from '../data/order-repository.js';
import type { OrderContext } from '../orders/order-context.js';
import { receiptVoutOf } from '../orders/order-receipt.js';
import { recordOrderPayment, type SettledPayment } from './record-order-payment.js';

export type PaymentSource =
  { transaction: string; txid?: never; refundTo?: string | null } | { txid: string; transaction?: never; refundTo?: never };

/**
 * Has p2p verify (and, for a submitted transaction, broadcast) a payment to the order's output and record
 * its txid under the order's claim (a txid pays one claim), then records it on the order. `expected`
 * names what the transaction must pay; the first is the order's output. For an order sold through a referral
 * link (decision 0040), what the transaction pays the referrer's script counts toward the order too, up to the
 * commission: asked for by `expected` (a BIP270 payment), or looked for beside it (a payment seen at the
 * order's address, which may pay the shop alone).
 */
export async function settleOrderPayment(
  context: OrderContext,
  order: OrderWithParts,
  source: PaymentSource,
  expected: ExpectedPayment[],
  via: SettledPayment['via'],
): Promise<OrderWithParts> {
  const settle = (outputs: ExpectedPayment[]) =>
    context.p2p.settlePayment({
      org: { id: order.organizationId, handle: order.merchantHandle },
      claim: { purpose: 'pos.order', sourceId: order.id },
      expected: outputs,
      transaction: source.transaction ?? '',
      txid: source.txid ?? '',
    });
  const commissionScript = order.commissionScript ?? '';
  const asked = commissionScript ? expected.findIndex((output) => output.script === commissionScript) : -1;
  let settled;
  let commissionAt = asked;
  if (commissionScript && asked < 0) {
    commissionAt = expected.length;
    settled = await settle([...expected, { script: commissionScript, minSatoshis: 0n }]).catch((error: unknown) => {
      if (error instanceof AppError && error.code === 'payment_wrong_output' && error.details?.expected_output === commissionAt) {
        commissionAt = -1;
        return settle(expected);
      }
      throw error;
    });
  } else settled = await settle(expected);
  const paidToReferrer = commissionAt >= 0 ? (settled.paidSatoshis[commissionAt] ?? 0n) : 0n;
  const commissionSatoshis = paidToReferrer < order.commissionSatoshis ? paidToReferrer : order.commissionSatoshis;
  return recordOrderPayment(context, order, {
    txid: settled.txid,
    satoshis: (settled.paidSatoshis[0] ?? 0n) + commissionSatoshis,
    commissionSatoshis,
    via,
    status: settled.status,
    blockHeight: settled.blockHeight ?? null,
    receiptVout: source.transaction ? receiptVoutOf(source.transaction, order) : null,
    refundTo: source.refundTo ?? null,
  });
}

/** How the order's payment by `txid` was recorded (payment_request, address, staff): which path accepted it first. */
export function recordedVia(order: OrderWithParts, txid: string): string | undefined {
  return order.payments.find((payment) => payment.txid === txid)?.via;
}
