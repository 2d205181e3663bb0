import { Transaction } from '@bsv/sdk';
import { scriptOfAddress, type ChainNetwork } from '@ctk/chain';
import { PaymentEvent, PaymentEventType, Settlement } from '@ctk/proto/ctk/events/v1/payment_event';
import { enqueuePaymentEvent } from '@ctk/shared';
import type { JointWithSignatures } from '../data/joint-repository.js';
import type { Prisma } from '../generated/prisma/client.js';

/**
 * When a joint transaction is accepted by the chain and it is a contract's release to the shop, an escrow's
 * (decision 0038) or a time-locked refund's (decision 0039): the sale it pays the shop, `payment.received` in
 * BSV (satoshis as minor units, rate 1, no tax: as paymail payments post), the amount the release pays the
 * release address, written to the outbox in the transaction that marks it broadcast. A refund or a cancel pays
 * the buyer back money the shop never had: nothing posts.
 */
export async function postContractRelease(
  tx: Prisma.TransactionClient,
  joint: JointWithSignatures,
  network: ChainNetwork,
  at: Date,
): Promise<boolean> {
  const escrow = await tx.escrow.findUnique({ where: { releaseId: joint.id } });
  const contract = escrow ?? (await tx.timelockedRefund.findUnique({ where: { releaseId: joint.id } }));
  if (!contract || !joint.signedTransaction) return false;
  const kind = escrow ? 'escrow' : 'timelocked_refund';
  const releaseScript = scriptOfAddress(contract.releaseAddress, network, 'release_address');
  const paid = Transaction.fromHex(joint.signedTransaction).outputs.find((output) => output.lockingScript.toHex() === releaseScript);
  if (!paid?.satoshis) return false;
  await enqueuePaymentEvent(
    tx,
    PaymentEvent.fromPartial({
      id: `contracts.${kind}.release.${contract.id}`,
      type: PaymentEventType.PAYMENT_EVENT_TYPE_PAYMENT_RECEIVED,
      organizationId: contract.organizationId,
      sourceService: 'contracts',
      sourceId: contract.id,
      currency: 'BSV',
      amountMinor: BigInt(paid.satoshis),
      satoshis: BigInt(paid.satoshis),
      exchangeRate: '1',
      settlement: Settlement.SETTLEMENT_BSV_WALLET,
      txid: joint.txid ?? '',
      occurredAt: at,
      description: `${kind === 'escrow' ? 'Escrow' : 'Time-locked refund'} ${contract.id} released${contract.description ? `: ${contract.description}` : ''}`,
    }),
  );
  return true;
}
