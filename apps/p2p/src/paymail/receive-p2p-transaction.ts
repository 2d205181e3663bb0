import { decodeTransaction, hexToBytes, verifyPayment, type ChainClient, type ExpectedOutput } from '@ctk/chain';
import type { ReceiveP2pTransactionRequest, ReceiveP2pTransactionResponse } from '@ctk/proto/ctk/p2p/v1/p2p';
import { AppError, countPayment, isUniqueViolation, orgOf } from '@ctk/shared';
import { claimPaymailReference, lockPaymailReference, releasePaymailReferenceClaim } from '../data/paymail-reference-repository.js';
import { isTxidSpent } from '../data/spent-outputs.js';
import { paymailOf } from '../domain/org-wallet.js';
import type { PaymailReference, PrismaClient } from '../generated/prisma/client.js';
import { ISSUED_REFERENCE } from './create-p2p-destination.js';
import { recordPaymailPayment } from './record-paymail-payment.js';
import { verifySenderSignature } from './sender-signature.js';

export type ReceiveDeps = { prisma: PrismaClient; chain: ChainClient; eventsCommitted: () => void };

type Submitted = { bytes: Uint8Array; txid: string };

/** A claim older than this no longer holds its reference (its broadcast or its process died). */
const CLAIM_STALE_MS = 2 * 60_000;
const NOTE = 'Payment received, thank you.';

/**
 * P2P receive transaction (5f1323cddf31, and BEEF for 5c55a7fdb7bb). The sender's signature over the
 * txid is checked when sent. Then, in three steps so that no lock or connection is held while the chain
 * answers: the transaction claims the reference (one transaction per reference, even when two arrive at
 * once); it is checked (a txid that paid before is refused) against the outputs issued and broadcast; and
 * the payment, the spent txid and the `payment.received` event commit together. A failed check or
 * broadcast releases the claim. Sending the same transaction for the same reference again (a retry, even
 * after a crash between broadcast and record) answers the same and records nothing more. Each is counted
 * in ctk_payments_total (path paymail): accepted, duplicate (such a retry), refused or error.
 */
export async function receiveP2pTransaction(
  deps: ReceiveDeps,
  request: ReceiveP2pTransactionRequest,
): Promise<ReceiveP2pTransactionResponse> {
  const received = await countPayment(
    'paymail',
    () => receive(deps, request),
    (answer) => answer.outcome,
  );
  return { txid: received.txid, note: NOTE };
}

async function receive(
  deps: ReceiveDeps,
  request: ReceiveP2pTransactionRequest,
): Promise<{ txid: string; outcome: 'accepted' | 'duplicate' }> {
  const org = orgOf(request.target?.org);
  const paymail = paymailOf(request.target?.paymail ?? '');
  const submitted = submittedTransaction(request);
  checkSender(request, submitted.txid);
  // Anything else was never issued (and a NUL character would be a database error rather than a 404).
  if (!ISSUED_REFERENCE.test(request.reference)) throw unknownReference(request.reference, paymail);
  const claim = { reference: request.reference, paymail, organizationId: org.id, txid: submitted.txid };

  const issued = await claimReference(deps.prisma, claim);
  if (issued.paidTxid === submitted.txid) return { txid: submitted.txid, outcome: 'duplicate' };
  try {
    const verified = await verifyPayment({
      payment: { transaction: submitted.bytes },
      expected: issued.outputs as ExpectedOutput[],
      chain: deps.chain,
      isTxidUsed: (txid) => isTxidSpent(deps.prisma, txid),
    });
    const recorded = await deps.prisma.$transaction(
      async (tx) => {
        const current = await lockPaymailReference(tx, claim.reference);
        if (current?.paidTxid === submitted.txid) return false; // the same transaction, submitted twice at once
        if (current?.paidTxid) throw alreadyPaid(current.reference, current.paidTxid);
        try {
          await recordPaymailPayment(tx, {
            org,
            issued,
            verified,
            sender: request.sender || null,
            senderPubkey: request.pubkey || null,
            note: request.note || null,
          });
        } catch (error) {
          if (isUniqueViolation(error))
            throw new AppError(
              'txid_already_used',
              `Transaction ${verified.txid} already paid for something else; a transaction pays once.`,
              { txid: verified.txid },
            );
          throw error;
        }
        return true;
      },
      { maxWait: 10_000 },
    );
    if (recorded) deps.eventsCommitted();
    return { txid: submitted.txid, outcome: recorded ? 'accepted' : 'duplicate' };
  } catch (error) {
    await releasePaymailReferenceClaim(deps.prisma, claim.reference, claim.txid).catch(() => undefined); // a stale claim frees itself anyway
    throw error;
  }
}

type Claim = { reference: string; paymail: string; organizationId: string; txid: string };

/** Locks the reference, checks it can take this transaction, and marks it claimed by it. */
async function claimReference(prisma: PrismaClient, claim: Claim): Promise<PaymailReference> {
  return prisma.$transaction(
    async (tx) => {
      const issued = await lockPaymailReference(tx, claim.reference);
      if (!issued || issued.organizationId !== claim.organizationId || issued.paymail !== claim.paymail)
        throw unknownReference(claim.reference, claim.paymail);
      if (issued.paidTxid === claim.txid) return issued;
      if (issued.paidTxid) throw alreadyPaid(issued.reference, issued.paidTxid);
      if (issued.expiresAt.getTime() < Date.now()) {
        throw new AppError(
          'payment_expired',
          `The payment destination ${issued.reference} expired at ${issued.expiresAt.toISOString()}; ask for a new one.`,
          { expired_at: issued.expiresAt.toISOString() },
        );
      }
      const claimedByAnother =
        issued.claimedTxid && issued.claimedTxid !== claim.txid && Date.now() - (issued.claimedAt?.getTime() ?? 0) < CLAIM_STALE_MS;
      if (claimedByAnother) {
        throw new AppError(
          'conflict',
          `Reference ${issued.reference} is being paid by transaction ${issued.claimedTxid}; try again in a moment.`,
          { claimed_txid: issued.claimedTxid },
        );
      }
      return claimPaymailReference(tx, issued.reference, claim.txid);
    },
    { maxWait: 10_000 },
  );
}

function alreadyPaid(reference: string, paidTxid: string): AppError {
  return new AppError('conflict', `Reference ${reference} is already paid by transaction ${paidTxid}.`, { paid_txid: paidTxid });
}

/** The transaction of the request, raw (`hex`) or BEEF (`beef`), both hex, exactly one of them. */
function submittedTransaction(request: ReceiveP2pTransactionRequest): Submitted {
  if (!request.reference)
    throw new AppError('validation_failed', 'reference is required: the one the P2P payment destination answered.', { field: 'reference' });
  const hex = request.hex || request.beef;
  if (!hex || (request.hex && request.beef))
    throw new AppError('validation_failed', 'Send the transaction as "hex" (raw) or "beef" (BEEF, hex), one of them.', {
      field: request.beef ? 'beef' : 'hex',
    });
  const field = request.hex ? 'hex' : 'beef';
  try {
    const bytes = hexToBytes(hex);
    const decoded = decodeTransaction(bytes);
    if ((field === 'beef') !== (decoded.format === 'beef')) throw new Error(`not ${field === 'hex' ? 'a raw transaction' : 'a BEEF'}`);
    return { bytes, txid: decoded.txid };
  } catch (error) {
    throw new AppError('validation_failed', `"${field}" is not a transaction: ${error instanceof Error ? error.message : String(error)}.`, {
      field,
    });
  }
}

function unknownReference(reference: string, paymail: string): AppError {
  return new AppError('not_found', `No payment destination with reference ${JSON.stringify(reference.slice(0, 80))} for ${paymail}.`, {
    field: 'reference',
  });
}

/** A signature, when sent, must be the sender's BSM signature over the txid, by `pubkey`. */
function checkSender(request: ReceiveP2pTransactionRequest, txid: string): void {
  if (!request.signature) return;
  if (!request.pubkey)
    throw new AppError('validation_failed', 'metadata.pubkey is required with metadata.signature.', { field: 'metadata.pubkey' });
  verifySenderSignature(txid, request.signature, request.pubkey);
}
