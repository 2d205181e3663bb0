import type { VerifiedPayment } from '@ctk/chain';
import { PaymentEvent, PaymentEventType, Settlement } from '@ctk/proto/ctk/events/v1/payment_event';
import { enqueuePaymentEvent, prismaQueries, type Org } from '@ctk/shared';
import { markPaymailReferencePaid } from '../data/paymail-reference-repository.js';
import { recordPaidDerivationIndex } from '../data/record-paid-derivation-index.js';
import { recordSpentOutputs } from '../data/spent-outputs.js';
import type { PaymailReference, Prisma } from '../generated/prisma/client.js';

type Payment = {
  org: Org;
  issued: PaymailReference;
  verified: VerifiedPayment;
  sender: string | null;
  senderPubkey: string | null;
  note: string | null;
};

/**
 * In the caller's transaction: the txid as spent (its primary key refuses a second claim), the reference
 * as paid, its child of the xpub as paid (the gap limit's window moves up), and `payment.received` in the
 * outbox. A paymail payment has no fiat price: it is recorded in
 * BSV, amount in satoshis (BSV's minor unit) at exchange rate 1, no tax.
 */
export async function recordPaymailPayment(tx: Prisma.TransactionClient, payment: Payment): Promise<void> {
  const { org, issued, verified } = payment;
  const paidAt = new Date();
  // The outputs it pays to the reference, as spent (decision 0022: an output pays one claim).
  await recordSpentOutputs(
    tx,
    verified.txid,
    verified.paid.map((output) => output.vout),
    { organizationId: org.id, purpose: 'paymail', sourceId: issued.reference },
  );
  await markPaymailReferencePaid(tx, issued.reference, {
    paidTxid: verified.txid,
    paidAt,
    senderHandle: storable(payment.sender, 320),
    senderPubkey: storable(payment.senderPubkey, 200),
    note: storable(payment.note, 500),
  });
  if (issued.xpub && issued.derivationIndex !== null)
    await recordPaidDerivationIndex(prismaQueries(tx), {
      organizationId: org.id,
      xpub: issued.xpub,
      derivationIndex: issued.derivationIndex,
    });
  const satoshis = BigInt(verified.satoshis);
  await enqueuePaymentEvent(
    tx,
    PaymentEvent.fromPartial({
      id: `p2p.paymail.${issued.reference}`,
      type: PaymentEventType.PAYMENT_EVENT_TYPE_PAYMENT_RECEIVED,
      organizationId: org.id,
      sourceService: 'p2p',
      sourceId: issued.reference,
      currency: 'BSV',
      amountMinor: satoshis,
      taxMinor: 0n,
      satoshis,
      exchangeRate: '1',
      settlement: Settlement.SETTLEMENT_BSV_WALLET,
      txid: verified.txid,
      occurredAt: paidAt,
      description: `Paymail payment to ${issued.paymail}${payment.sender ? ` from ${storable(payment.sender, 100)}` : ''}`,
    }),
  );
}

/**
 * The sender's free text as it can be stored: without NUL characters, which PostgreSQL text refuses (the
 * payment is broadcast by now, so a refusal here would lose its record), and at most `max` characters.
 */
function storable(text: string | null, max: number): string | null {
  return text === null ? null : text.replace(/\u0000/g, '').slice(0, max);
}
