import { Transaction } from '@bsv/sdk';
import { scriptOfAddress, type ChainNetwork } from '@ctk/chain';
import { PaymentEvent, PaymentEventType, Settlement } from '@ctk/proto/ctk/events/v1/payment_event';
import type { Order } from '@ctk/proto/ctk/pos/v1/pos';
import { enqueuePaymentEvent, orderEventLines, orderTaxRate } from '@ctk/shared';
import type { JointWithSignatures } from '../data/joint-repository.js';
import { escrowOrder } from '../escrow/escrow-order.js';
import type { Prisma } from '../generated/prisma/client.js';

/** What a release paid the shop, and where the event about it comes from. */
type Release = {
  id: string;
  organizationId: string;
  sourceId: string;
  description: string;
  satoshis: bigint;
  txid: string;
  at: Date;
};

/**
 * When the chain accepts a joint transaction, what it paid the shop, `payment.received`, written to the outbox in
 * the transaction that marks it broadcast:
 * - a contract's release to the shop, an escrow's (decision 0038) or a time-locked refund's (decision 0039): an
 *   escrow of an order posts the order's sale as pos priced it (its lines, tax and tip in its currency, at its
 *   rate); any other release posts in BSV (satoshis as minor units, rate 1, no tax: as paymail payments post)
 *   what it paid the release address;
 * - a joint transaction of its own (decision 0037) that pays the address of the shop's identity key more than it
 *   spends of it: the difference, in BSV.
 * A contract's funding, refund or cancel moves money the shop never had: nothing posts.
 */
export async function postShopReceipt(
  tx: Prisma.TransactionClient,
  joint: JointWithSignatures,
  network: ChainNetwork,
  at: Date,
): Promise<boolean> {
  if (!joint.signedTransaction) return false;
  const signed = Transaction.fromHex(joint.signedTransaction);
  const escrow = await tx.escrow.findUnique({ where: { releaseId: joint.id } });
  const contract = escrow ?? (await tx.timelockedRefund.findUnique({ where: { releaseId: joint.id } }));
  if (!contract) return postJointReceipt(tx, joint, signed, network, at);
  const releaseScript = scriptOfAddress(contract.releaseAddress, network, 'release_address');
  const paid = signed.outputs.find((output) => output.lockingScript.toHex() === releaseScript);
  if (!paid?.satoshis) return false;
  const release: Release = {
    id: `contracts.${escrow ? 'escrow' : 'timelocked_refund'}.release.${contract.id}`,
    organizationId: contract.organizationId,
    sourceId: contract.id,
    description: `${escrow ? 'Escrow' : 'Time-locked refund'} ${contract.id} released${contract.description ? `: ${contract.description}` : ''}`,
    satoshis: BigInt(paid.satoshis),
    txid: joint.txid ?? '',
    at,
  };
  const order = escrow ? escrowOrder(escrow) : undefined;
  await enqueuePaymentEvent(tx, order ? orderSaleEvent(order, release) : bsvSaleEvent(release));
  return true;
}

/** A joint transaction of its own: what it pays the shop's identity address beyond what it spends of it. */
async function postJointReceipt(
  tx: Prisma.TransactionClient,
  joint: JointWithSignatures,
  signed: Transaction,
  network: ChainNetwork,
  at: Date,
): Promise<boolean> {
  if (!joint.shopAddress) return false;
  const script = scriptOfAddress(joint.shopAddress, network, 'shop_address');
  const agreed = Transaction.fromHexEF(joint.transaction);
  const paid = signed.outputs.reduce((sum, output) => sum + (output.lockingScript.toHex() === script ? BigInt(output.satoshis!) : 0n), 0n);
  const spent = agreed.inputs.reduce((sum, input) => {
    const source = input.sourceTransaction!.outputs[input.sourceOutputIndex]!;
    return sum + (source.lockingScript.toHex() === script ? BigInt(source.satoshis!) : 0n);
  }, 0n);
  if (paid <= spent) return false;
  await enqueuePaymentEvent(
    tx,
    bsvSaleEvent({
      id: `contracts.joint.${joint.id}`,
      organizationId: joint.organizationId,
      sourceId: joint.id,
      description: `Joint transaction ${joint.id}${joint.description ? `: ${joint.description}` : ''}`,
      satoshis: paid - spent,
      txid: joint.txid ?? '',
      at,
    }),
  );
  return true;
}

function bsvSaleEvent(release: Release): PaymentEvent {
  return PaymentEvent.fromPartial({
    ...eventOf(release),
    currency: 'BSV',
    amountMinor: release.satoshis,
    exchangeRate: '1',
  });
}

/** The order's sale, as pos would post the order paid in bitcoin (apps/pos/src/orders/order-event.ts). */
function orderSaleEvent(order: Order, release: Release): PaymentEvent {
  return PaymentEvent.fromPartial({
    ...eventOf(release),
    sourceReference: order.orderNumber,
    currency: order.currency,
    amountMinor: order.totalMinor,
    taxMinor: order.taxMinor,
    tipMinor: order.tipMinor,
    rewardMinor: order.rewardMinor,
    exchangeRate: order.exchangeRate,
    rateSource: order.rateSource,
    lines: orderEventLines(order, order),
    taxJurisdiction: order.taxJurisdiction,
    taxRate: orderTaxRate(order),
    description: `Order ${order.orderNumber}, paid by escrow ${release.sourceId} on its release`,
  });
}

function eventOf(release: Release): Partial<PaymentEvent> {
  return {
    id: release.id,
    type: PaymentEventType.PAYMENT_EVENT_TYPE_PAYMENT_RECEIVED,
    organizationId: release.organizationId,
    sourceService: 'contracts',
    sourceId: release.sourceId,
    satoshis: release.satoshis,
    settlement: Settlement.SETTLEMENT_BSV_WALLET,
    txid: release.txid,
    occurredAt: release.at,
    description: release.description,
  };
}
