import type { GetPaymentDestinationRequest } from '@ctk/proto/ctk/p2p/v1/p2p';
import { AppError, orgOf, prismaQueries } from '@ctk/shared';
import { paymailOf } from '../domain/org-wallet.js';
import type { PrismaClient } from '../generated/prisma/client.js';
import { clientOf } from '../settlement/allocate-destination.js';
import { checkTimestamp } from './check-timestamp.js';
import { deriveOutput, type AddressWindow } from './derive-output.js';
import { recoverSigner } from './sender-signature.js';

export type DestinationDeps = {
  prisma: PrismaClient;
  dtToleranceSeconds: number;
  /** How long the address answered is held for this payer (no payment is ever matched to it here). */
  holdSeconds: number;
  window: AddressWindow;
};

/**
 * bsvalias paymentDestination: an output of the organisation, fresh within the gap limit of its wallet. A sender request (POST) must name
 * the sender and a current `dt`; a signature, when sent, must be a BSM signature over
 * senderHandle + amount ("0" when absent) + dt + purpose, the order paymail clients sign in.
 */
export async function getPaymentDestination(deps: DestinationDeps, request: GetPaymentDestinationRequest): Promise<{ output: string }> {
  // Its wallet is read as the child is taken (deriveOutput).
  const org = orgOf(request.target?.org);
  paymailOf(request.target?.paymail ?? '');
  if (request.senderRequest) {
    if (!request.senderHandle) throw new AppError('validation_failed', 'senderHandle is required.', { field: 'senderHandle' });
    if (!request.dt) throw new AppError('validation_failed', 'dt is required.', { field: 'dt' });
    checkTimestamp(request.dt, deps.dtToleranceSeconds);
    if (request.signature)
      recoverSigner(`${request.senderHandle}${request.amount || '0'}${request.dt}${request.purpose}`, request.signature);
  }
  const holdUntil = new Date(Date.now() + deps.holdSeconds * 1000);
  const { script } = await deps.prisma.$transaction(
    (tx) =>
      deriveOutput(prismaQueries(tx), org, {
        ...deps.window,
        holdUntil,
        purpose: 'paymail',
        anonymous: true,
        client: clientOf(request.clientAddress),
      }),
    {
      maxWait: 20_000,
      timeout: 20_000,
    },
  );
  return { output: script };
}
