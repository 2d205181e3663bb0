import { addressOfScript, outputCovenantLock, outputCovenantSpendBytes } from '@ctk/chain';
import { AppError } from '@ctk/shared';
import type { ReferralCheckout } from '../data/referral-repository.js';
import type { ContractsContext } from '../domain/contracts-context.js';
import { newRecordId } from '../domain/record-id.js';
import { covenantOutputsOf, type StoredOutput } from './covenant-outputs.js';

export type CheckoutRequest = { id: string; publicUrl: string; clientAddress: string };

/**
 * A buyer checks out through a referral link (docs/decisions/0040-referral-covenants.md): pos opens an order for
 * the link's item with the referrer's commission, and its payment request names what the order must be paid: the
 * shop's output, the referrer's, and the receipt. Those outputs, in that order, are what the covenant lets its
 * money go to; the buyer pays into it their total and the fee of the covenant's spend. A link staff disabled
 * opens none.
 */
export async function openReferralCheckout(context: ContractsContext, request: CheckoutRequest): Promise<ReferralCheckout> {
  const link = await context.referrals.linkById(request.id);
  if (!link) throw new AppError('not_found', `No referral link ${request.id}`, { field: 'id' });
  if (link.disabledAt)
    throw new AppError('failed_precondition', `The shop disabled referral link ${link.id}: it opens no checkout`, {
      reason: 'link_disabled',
    });
  const org = { id: link.organizationId, handle: link.orgHandle };
  const call = { timeoutMs: 20_000 };
  const { order } = await context.pos.openReferralOrder(
    {
      org,
      itemId: link.itemId,
      referralLinkId: link.id,
      commissionBasisPoints: link.commissionBasisPoints,
      commissionAddress: link.referrerAddress,
      publicUrl: request.publicUrl,
      clientAddress: request.clientAddress,
    },
    call,
  );
  if (!order) throw new AppError('unavailable', 'pos opened no order for the referral link');
  const paymentRequest = await context.pos.getPaymentRequest({ orderNumber: order.orderNumber, publicUrl: request.publicUrl }, call);
  const outputs: StoredOutput[] = paymentRequest.outputs.map((output) => ({
    script: output.script,
    address: addressOfScript(output.script, context.chain.network) ?? '',
    satoshis: output.amount.toString(),
    description: output.description,
  }));
  // The shop's output, the referrer's commission, the receipt: pos answers them so for an order with a commission.
  if (outputs[1]?.address !== link.referrerAddress || BigInt(outputs[1].satoshis) !== order.commissionSatoshis)
    throw new AppError('unavailable', `pos's payment request of order ${order.orderNumber} does not pay the referrer`);
  const covenant = covenantOutputsOf(outputs);
  const feeSatoshis = BigInt(Math.max(1, Math.ceil((outputCovenantSpendBytes(covenant) * context.feeSatsPerKb) / 1000)));
  return context.referrals.insertCheckout({
    id: newRecordId('rco'),
    referralLinkId: link.id,
    organizationId: link.organizationId,
    orgHandle: link.orgHandle,
    orderNumber: order.orderNumber,
    currency: order.currency,
    totalMinor: order.totalMinor,
    taxMinor: order.taxMinor,
    commissionMinor: order.commissionMinor,
    satoshis: order.satoshis,
    commissionSatoshis: order.commissionSatoshis,
    feeSatoshis,
    outputs,
    covenantScript: outputCovenantLock(covenant).toHex(),
    expiresAt: new Date(order.expiresAt),
    createdAt: context.now(),
  });
}
