import { decodeTransaction, hexToBytes, verifyPayment, type ChainClient, type ExpectedOutput } from '@ctk/chain';
import type { ReceiveP2pTransactionRequest, ReceiveP2pTransactionResponse } from '@ctk/proto/ctk/p2p/v1/p2p';
import { AppError, isUniqueViolation } from '@ctk/shared';
import { paymailOf, walletOrgOf } from '../domain/org-wallet.js';
import type { PrismaClient } from '../generated/prisma/client.js';
import { ISSUED_REFERENCE } from './create-p2p-destination.js';
import { recordPaymailPayment } from './record-paymail-payment.js';
import { verifySenderSignature } from './sender-signature.js';

export type ReceiveDeps = { prisma: PrismaClient; chain: ChainClient; transactionTimeoutMs: number; eventsCommitted: () => void };

type Submitted = { bytes: Uint8Array; txid: string };

/**
 * P2P receive transaction (5f1323cddf31, and BEEF for 5c55a7fdb7bb): the sender's signature over the
 * txid is checked when sent; then, with the reference row locked (one payment per reference, even when
 * two arrive at once), the transaction must pay the outputs issued, must not have paid before, and is
 * broadcast; the payment, the spent txid and the `payment.received` event commit together.
 * Sending the same transaction for the same reference again answers the same, and records nothing more.
 */
export async function receiveP2pTransaction(deps: ReceiveDeps, request: ReceiveP2pTransactionRequest): Promise<ReceiveP2pTransactionResponse> {
  const org = walletOrgOf(request.target?.org);
  const paymail = paymailOf(request.target?.paymail ?? '');
  const submitted = submittedTransaction(request);
  checkSender(request, submitted.txid);
  // Anything else was never issued (and a NUL character would be a database error rather than a 404).
  if (!ISSUED_REFERENCE.test(request.reference)) throw unknownReference(request.reference, paymail);
  const note = 'Payment received, thank you.';
  await deps.prisma.$transaction(async (tx) => {
    await tx.$queryRawUnsafe('SELECT reference FROM paymail_references WHERE reference = $1 FOR UPDATE', request.reference);
    const issued = await tx.paymailReference.findUnique({ where: { reference: request.reference } });
    if (!issued || issued.organizationId !== org.id || issued.paymail !== paymail) throw unknownReference(request.reference, paymail);
    if (issued.paidTxid === submitted.txid) return;
    if (issued.paidTxid) throw new AppError('conflict', `Reference ${issued.reference} is already paid by transaction ${issued.paidTxid}.`, { paid_txid: issued.paidTxid });
    if (issued.expiresAt.getTime() < Date.now()) {
      throw new AppError('payment_expired', `The payment destination ${issued.reference} expired at ${issued.expiresAt.toISOString()}; ask for a new one.`, { expired_at: issued.expiresAt.toISOString() });
    }
    const verified = await verifyPayment({
      payment: { transaction: submitted.bytes },
      expected: issued.outputs as ExpectedOutput[],
      chain: deps.chain,
      isTxidUsed: async (txid) => (await tx.spentTxid.count({ where: { txid } })) > 0,
    });
    try {
      await recordPaymailPayment(tx, { org, issued, verified, sender: request.sender || null, senderPubkey: request.pubkey || null, note: request.note || null });
    } catch (error) {
      if (isUniqueViolation(error)) throw new AppError('txid_already_used', `Transaction ${verified.txid} already paid for something else; a transaction pays once.`, { txid: verified.txid });
      throw error;
    }
  }, { timeout: deps.transactionTimeoutMs, maxWait: 10_000 });
  deps.eventsCommitted();
  return { txid: submitted.txid, note };
}

/** The transaction of the request, raw (`hex`) or BEEF (`beef`), both hex, exactly one of them. */
function submittedTransaction(request: ReceiveP2pTransactionRequest): Submitted {
  if (!request.reference) throw new AppError('validation_failed', 'reference is required: the one the P2P payment destination answered.', { field: 'reference' });
  const hex = request.hex || request.beef;
  if (!hex || (request.hex && request.beef)) throw new AppError('validation_failed', 'Send the transaction as "hex" (raw) or "beef" (BEEF, hex), one of them.', { field: request.beef ? 'beef' : 'hex' });
  const field = request.hex ? 'hex' : 'beef';
  try {
    const bytes = hexToBytes(hex);
    const decoded = decodeTransaction(bytes);
    if ((field === 'beef') !== (decoded.format === 'beef')) throw new Error(`not ${field === 'hex' ? 'a raw transaction' : 'a BEEF'}`);
    return { bytes, txid: decoded.txid };
  } catch (error) {
    throw new AppError('validation_failed', `"${field}" is not a transaction: ${error instanceof Error ? error.message : String(error)}.`, { field });
  }
}

function unknownReference(reference: string, paymail: string): AppError {
  return new AppError('not_found', `No payment destination with reference ${JSON.stringify(reference.slice(0, 80))} for ${paymail}.`, { field: 'reference' });
}

/** A signature, when sent, must be the sender's BSM signature over the txid, by `pubkey`. */
function checkSender(request: ReceiveP2pTransactionRequest, txid: string): void {
  if (!request.signature) return;
  if (!request.pubkey) throw new AppError('validation_failed', 'metadata.pubkey is required with metadata.signature.', { field: 'metadata.pubkey' });
  verifySenderSignature(txid, request.signature, request.pubkey);
}

