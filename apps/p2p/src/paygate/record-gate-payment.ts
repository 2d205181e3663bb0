import { createHash } from 'node:crypto';
import { PaymentEvent, PaymentEventType, Settlement } from '@ctk/proto/ctk/events/v1/payment_event';
import { AppError, enqueuePaymentEvent, prismaQueries } from '@ctk/shared';
import { addGatePayment } from '../data/gate-payment-repository.js';
import { findRequestPayment, markPaymentRequestPaid } from '../data/gate-payment-request-repository.js';
import { recordPaidDerivationIndex } from '../data/record-paid-derivation-index.js';
import { txidAlreadyUsed } from '../data/record-settlement.js';
import { claimOutputs } from '../data/spent-outputs.js';
import type { GatePayment, GatePaymentRequest, GateResource, PrismaClient } from '../generated/prisma/client.js';

/** What a payment paid: a payment request of the gate (an xpub child), or a BRC-42 key of the merchant's own for the resource. */
export type PaidTarget =
  | { kind: 'request'; request: GatePaymentRequest }
  | { kind: 'brc42'; accountId: string; organizationId: string; script: string; prefix: string; suffix: string; payer: string };

export type AcceptedPayment = {
  target: PaidTarget;
  resource: GateResource;
  txid: string;
  vout: number;
  /** What the output paid, kept whole, and the price asked (more is flagged overpaid, as orders flag it). */
  satoshis: bigint;
  price: bigint;
  protocol: 'x402' | 'brc121';
  payer: string;
  expiresAt: Date;
};

/**
 * In one transaction: the txid as spent (the primary key of spent_txids, shared with every other payment
 * p2p records, refuses a second claim), the payment with what it bought (its txid and nonce unique), the
 * request as paid, its child of the xpub as paid (the gap window moves up), and `payment.received` in the
 * outbox, so books posts it like any payment: BSV, amount in satoshis, no tax.
 */
export async function recordGatePayment(prisma: PrismaClient, accepted: AcceptedPayment): Promise<GatePayment> {
  const { target, resource } = accepted;
  const request = target.kind === 'request' ? target.request : null;
  const owner = request ?? (target as Extract<PaidTarget, { kind: 'brc42' }>);
  return prisma.$transaction(
    async (tx) => {
      if (request) {
        if (!(await markPaymentRequestPaid(tx, request.nonce, accepted.txid))) {
          // Paid meanwhile: by this very transaction (the same payment offered twice at once), or by another.
          const now = await findRequestPayment(tx, request.nonce);
          if (now?.paidTxid === accepted.txid) throw txidAlreadyUsed(accepted.txid);
          throw new AppError('payment_expired', 'This payment request was already paid by another transaction: ask again for a new one.');
        }
      }
      const payment = await addGatePayment(tx, {
        accountId: owner.accountId,
        organizationId: owner.organizationId,
        resourceId: resource.id,
        method: resource.method,
        path: resource.path,
        // A BRC-42 payment has no request: its sender, nonce and time name it, once.
        nonce: request?.nonce ?? brc42Nonce(owner as Extract<PaidTarget, { kind: 'brc42' }>),
        txid: accepted.txid,
        vout: accepted.vout,
        satoshis: accepted.satoshis,
        priceSatoshis: accepted.price,
        protocol: accepted.protocol,
        payer: accepted.payer,
        script: owner.script,
        derivationIndex: request?.derivationIndex ?? null,
        derivationPrefix: target.kind === 'brc42' ? target.prefix : null,
        derivationSuffix: target.kind === 'brc42' ? target.suffix : null,
        calls: resource.grantKind === 'calls' ? resource.grantCalls : null,
        expiresAt: accepted.expiresAt,
      });
      // The output it paid, as spent (decision 0022): another output of the transaction may pay an order.
      const claimed = await claimOutputs(prismaQueries(tx), accepted.txid, [accepted.vout], {
        organizationId: owner.organizationId,
        purpose: 'paygate',
        sourceId: payment.id,
      });
      if (claimed.recorded === 0 || claimed.others.length > 0) throw txidAlreadyUsed(accepted.txid);
      if (request?.xpub && request.derivationIndex !== null)
        await recordPaidDerivationIndex(prismaQueries(tx), {
          organizationId: request.organizationId,
          xpub: request.xpub,
          derivationIndex: request.derivationIndex,
        });
      await enqueuePaymentEvent(
        tx,
        PaymentEvent.fromPartial({
          id: `p2p.gate.${payment.id}`,
          type: PaymentEventType.PAYMENT_EVENT_TYPE_PAYMENT_RECEIVED,
          organizationId: owner.organizationId,
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
    { maxWait: 20_000, timeout: 20_000 },
  );
}

/** A BRC-42 payment's name in place of a request's nonce: its payer, derivation prefix and suffix, hashed (they pay once). */
export function brc42Nonce(target: Extract<PaidTarget, { kind: 'brc42' }>): string {
  return `brc42:${createHash('sha256').update(`${target.payer}\n${target.prefix}\n${target.suffix}`).digest('base64url')}`;
}
