import { multisigLock } from '@ctk/chain';
import type { OrgRef } from '@ctk/proto/ctk/common/v1/common';
import { AppError, lineOfText, orgOf, validate } from '@ctk/shared';
import { z } from 'zod';
import type { TimelockedRefund } from '../data/timelocked-refund-repository.js';
import type { ContractsContext } from '../domain/contracts-context.js';
import { newRecordId } from '../domain/record-id.js';
import { lockedSatoshisSchema, payeeAddresses, publicKeySchema, shopIdentityKey } from '../domain/contract-terms.js';

const HOUR_MS = 3_600_000;
/** The latest a refund may be dated: two years ahead. */
const MAX_AHEAD_MS = 2 * 366 * 24 * HOUR_MS;

const createSchema = z.object({
  buyerPublicKey: publicKeySchema('buyer_public_key'),
  satoshis: lockedSatoshisSchema,
  refundAfter: z.iso.datetime({ offset: true, error: 'refund_after must be a date and time, such as 2026-12-24T18:00:00Z' }),
  description: lineOfText('description', 200).default(''),
  releaseAddress: z.string().max(100).default(''),
  refundAddress: z.string().max(100).default(''),
  createdBy: z.string().max(100).default(''),
});

/**
 * Agrees a time-locked refund (docs/decisions/0039-time-locked-refunds.md): the lock OP_2 <buyer> <shop> OP_2
 * OP_CHECKMULTISIG, the amount the buyer will put in it, and the date after which the buyer may take it back
 * (an hour to two years ahead, to the second: it becomes the refund's nLockTime).
 */
export async function createTimelockedRefund(
  context: ContractsContext,
  orgRef: OrgRef | undefined,
  input: unknown,
): Promise<TimelockedRefund> {
  const org = orgOf(orgRef);
  const request = validate(createSchema, input);
  const refundAfter = new Date(Math.floor(Date.parse(request.refundAfter) / 1000) * 1000);
  const ahead = refundAfter.getTime() - context.now().getTime();
  if (ahead < HOUR_MS || ahead > MAX_AHEAD_MS)
    throw new AppError('validation_failed', 'refund_after must be at least an hour and at most two years from now', {
      field: 'refund_after',
    });
  const { seller, wallet } = await shopIdentityKey(context, org);
  if (seller === request.buyerPublicKey)
    throw new AppError('validation_failed', 'The buyer and the shop must hold two different keys', { field: 'buyer_public_key' });
  return context.refunds.insert({
    id: newRecordId('tlr'),
    organizationId: org.id,
    orgHandle: org.handle,
    description: request.description,
    satoshis: request.satoshis,
    buyerPublicKey: request.buyerPublicKey,
    sellerPublicKey: seller,
    lockScript: multisigLock(2, [request.buyerPublicKey, seller]).toHex(),
    refundAfter,
    ...payeeAddresses(context.chain.network, { seller, buyer: request.buyerPublicKey, wallet }, request),
    createdBy: request.createdBy,
    createdAt: context.now(),
  });
}
