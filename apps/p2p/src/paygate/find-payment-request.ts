import { AppError } from '@ctk/shared';
import { findPaymentRequestByNonce, findRequestForScript } from '../data/gate-payment-request-repository.js';
import type { GatePaymentRequest, PrismaClient } from '../generated/prisma/client.js';
import type { Account } from './gate-account.js';

/** How a payment names what it pays: x402 by the nonce of its `accepted` requirements; BRC-121 by the script at its vout. */
export type RequestKey = { nonce: string } | { script: string; resourceId?: string };

/**
 * The open payment request a payment is for. An unknown nonce, another account's, an expired one or one
 * already paid is `payment_expired`: the payer asks again and gets a new one. Named by its nonce, a request
 * the gate claimed for this very transaction stays this transaction's past its expiry: an earlier attempt
 * broadcast it and recorded nothing (its process died, or the record failed), and the payer offers it again.
 */
export async function findPaymentRequest(
  prisma: PrismaClient,
  account: Account,
  key: RequestKey,
  txid: string,
): Promise<GatePaymentRequest> {
  const request =
    'nonce' in key
      ? await findPaymentRequestByNonce(prisma, key.nonce)
      : await findRequestForScript(prisma, { accountId: account.id, script: key.script, resourceId: key.resourceId }, txid);
  if (!request || request.accountId !== account.id) {
    throw 'nonce' in key
      ? new AppError(
          'payment_expired',
          'The nonce names no payment request of this gate: ask again (a bare request answers 402 with a new one).',
          {
            field: 'nonce',
          },
        )
      : new AppError(
          'payment_wrong_output',
          'The output at vout pays no payment request of this gate: pay the x-bsv-server key a 402 answered.',
          {
            field: 'vout',
          },
        );
  }
  if (request.paidTxid === txid)
    throw new AppError('txid_already_used', `Transaction ${txid} already paid this request; a transaction pays once.`, { txid });
  if (request.paidTxid !== null)
    throw new AppError('payment_expired', 'This payment request was already paid by another transaction: ask again for a new one.', {
      field: 'nonce',
    });
  const claimedForIt = 'nonce' in key && request.claimedTxid === txid;
  if (request.expiresAt.getTime() < Date.now() && !claimedForIt)
    throw new AppError('payment_expired', `This payment request expired at ${request.expiresAt.toISOString()}: ask again for a new one.`, {
      field: 'nonce',
      expired_at: request.expiresAt.toISOString(),
    });
  return request;
}
