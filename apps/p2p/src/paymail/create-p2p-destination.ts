import { randomBytes } from 'node:crypto';
import type { CreateP2pDestinationRequest, CreateP2pDestinationResponse } from '@ctk/proto/ctk/p2p/v1/p2p';
import { AppError, MAX_SATOSHIS_BIGINT, orgOf, prismaQueries } from '@ctk/shared';
import { addPaymailReference } from '../data/paymail-reference-repository.js';
import { paymailOf } from '../domain/org-wallet.js';
import type { PrismaClient } from '../generated/prisma/client.js';
import { deriveOutput, type AddressWindow } from './derive-output.js';
import { clientOf } from '../settlement/allocate-destination.js';
import { receiptOutput } from './receipt-output.js';

export type P2pDestinationDeps = { prisma: PrismaClient; referenceTtlSeconds: number; window: AddressWindow };

/** What a reference this service issues looks like: 128 random bits, lowercase hex. */
export const ISSUED_REFERENCE = /^[0-9a-f]{32}$/;

/**
 * P2P payment destination (2a40af698840): an output of the organisation for the satoshis asked (fresh
 * within the gap limit of its wallet, see derive-output.ts), and the OP_RETURN receipt carrying the paymail
 * and a new reference, recorded with its expiry so that receive-transaction can check the payment pays
 * exactly what was issued. The reference, not the address, tells payments apart.
 */
export async function createP2pDestination(
  deps: P2pDestinationDeps,
  request: CreateP2pDestinationRequest,
): Promise<CreateP2pDestinationResponse> {
  // Its wallet is read as the child is taken (deriveOutput).
  const org = orgOf(request.target?.org);
  const paymail = paymailOf(request.target?.paymail ?? '');
  if (request.satoshis < 1n || request.satoshis > MAX_SATOSHIS_BIGINT) {
    throw new AppError('validation_failed', `satoshis must be a whole number from 1 to ${MAX_SATOSHIS_BIGINT.toLocaleString('en-US')}.`, {
      field: 'satoshis',
    });
  }
  const reference = randomBytes(16).toString('hex');
  const expiresAt = new Date(Date.now() + deps.referenceTtlSeconds * 1000);
  const outputs = await deps.prisma.$transaction(
    async (tx) => {
      const client = clientOf(request.clientAddress);
      const derived = await deriveOutput(prismaQueries(tx), org, {
        ...deps.window,
        holdUntil: expiresAt,
        purpose: 'paymail',
        anonymous: true,
        client,
      });
      const issued = [{ script: derived.script, satoshis: Number(request.satoshis) }, receiptOutput(paymail, reference)];
      await addPaymailReference(tx, {
        reference,
        organizationId: org.id,
        paymail,
        satoshis: request.satoshis,
        outputs: issued,
        derivationIndex: derived.derivationIndex,
        xpub: derived.xpub,
        expiresAt,
      });
      return issued;
    },
    { maxWait: 20_000, timeout: 20_000 },
  );
  return {
    outputs: outputs.map((output) => ({ script: output.script, satoshis: BigInt(output.satoshis) })),
    reference,
    expiresAt: expiresAt.toISOString(),
  };
}
