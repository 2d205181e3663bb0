import { PaymentEvent, PaymentEventType, Settlement } from '@ctk/proto/ctk/events/v1/payment_event';
import { AppError, enqueuePaymentEvent } from '@ctk/shared';
import { recordPaidDerivationIndex } from '../data/record-paid-derivation-index.js';
import { txidAlreadyUsed } from '../data/record-settlement.js';
import type { GatePayment, GatePaymentRequest, GateResource, PrismaClient } from '../generated/prisma/client.js';

export type AcceptedPayment = {
  request: GatePaymentRequest;
  resource: GateResource;
  txid: string;
  vout: number;
  satoshis: bigint;
  protocol: 'x402' | 'brc121';
  payer: string;
  expiresAt: Date;
};

const CLAIM_TXID = `INSERT INTO spent_txids (txid, organization_id, purpose, source_id) VALUES ($1, $2::uuid, 'paygate', $3)
  ON CONFLICT (txid) DO NOTHING RETURNING txid`;

/**
 * In one transaction: the txid as spent (the primary key of spent_txids, shared with every other payment
 * p2p records, refuses a second claim), the payment with what it bought (its txid and nonce unique), the
 * request as paid, its child of the xpub as paid (the gap window moves up), and `payment.received` in the
 * outbox, so books posts it like any payment: BSV, amount in satoshis, no tax.
 */
export async function recordGatePayment(prisma: PrismaClient, accepted: AcceptedPayment): Promise<GatePayment> {
  const { request, resource } = accepted;
  return prisma.$transaction(
    async (tx) => {
      const paid = await tx.gatePaymentRequest.updateMany({
        where: { nonce: request.nonce, paidTxid: null },
        data: { paidTxid: accepted.txid },
      });
      if (paid.count === 0)
        throw new AppError('payment_expired', 'This payment request was already paid by another transaction: ask again for a new one.');
      const payment = await tx.gatePayment.create({
        data: {
          accountId: request.accountId,
          organizationId: request.organizationId,
          resourceId: resource.id,
          method: resource.method,
          path: resource.path,
          nonce: request.nonce,
          txid: accepted.txid,
          vout: accepted.vout,
          satoshis: accepted.satoshis,
          protocol: accepted.protocol,
          payer: accepted.payer,
          script: request.script,
          derivationIndex: request.derivationIndex,
          calls: resource.grantKind === 'calls' ? resource.grantCalls : null,
          expiresAt: accepted.expiresAt,
        },
      });
      const claimed = await tx.$queryRawUnsafe<unknown[]>(CLAIM_TXID, accepted.txid, request.organizationId, payment.id);
      if (claimed.length === 0) throw txidAlreadyUsed(accepted.txid);
      if (request.xpub && request.derivationIndex !== null)
        await recordPaidDerivationIndex(tx, {
          organizationId: request.organizationId,
          xpub: request.xpub,
          derivationIndex: request.derivationIndex,
        });
      await enqueuePaymentEvent(
        tx,
        PaymentEvent.fromPartial({
          id: `p2p.gate.${payment.id}`,
          type: PaymentEventType.PAYMENT_EVENT_TYPE_PAYMENT_RECEIVED,
          organizationId: request.organizationId,
          sourceService: 'p2p',
          sourceId: payment.id,
          currency: 'BSV',
          amountMinor: accepted.satoshis,
          taxMinor: 0n,
          satoshis: accepted.satoshis,
          exchangeRate: '1',
          settlement: Settlement.SETTLEMENT_BSV_WALLET,
          txid: accepted.txid,
          occurredAt: payment.createdAt,
          description: `Payment gate: ${resource.method} ${resource.path}`,
        }),
      );
      return payment;
    },
    { maxWait: 10_000 },
  );
}
