import { multisigLock } from '@ctk/chain';
import type { OrgRef } from '@ctk/proto/ctk/common/v1/common';
import { AppError, lineOfText, orgOf, validate } from '@ctk/shared';
import { z } from 'zod';
import type { Escrow } from '../data/escrow-repository.js';
import type { ContractsContext } from '../domain/contracts-context.js';
import { newRecordId } from '../domain/record-id.js';
import { lockedSatoshisSchema, payeeAddresses, publicKeySchema, shopIdentityKey } from '../domain/contract-terms.js';

const createSchema = z.object({
  buyerPublicKey: publicKeySchema('buyer_public_key'),
  arbiterPublicKey: publicKeySchema('arbiter_public_key'),
  satoshis: lockedSatoshisSchema,
  description: lineOfText('description', 200).default(''),
  releaseAddress: z.string().max(100).default(''),
  refundAddress: z.string().max(100).default(''),
  createdBy: z.string().max(100).default(''),
});

/**
 * Agrees an escrow (docs/decisions/0038-escrow.md): the lock OP_2 <buyer> <seller> <arbiter> OP_3
 * OP_CHECKMULTISIG, where the seller's key is the shop's wallet identity key as p2p knows it (the merchant's wallet
 * signs with it), the amount it will hold, and where a release and a refund pay. Three different keys: one
 * party holding two would need no one else.
 */
export async function createEscrow(context: ContractsContext, orgRef: OrgRef | undefined, input: unknown): Promise<Escrow> {
  const org = orgOf(orgRef);
  const request = validate(createSchema, input);
  const seller = await shopIdentityKey(context, org);
  const keys = [request.buyerPublicKey, seller, request.arbiterPublicKey];
  if (new Set(keys).size !== 3)
    throw new AppError(
      'validation_failed',
      'The buyer, the seller (your wallet identity key) and the arbiter must hold three different keys',
      {
        field: keys.indexOf(request.arbiterPublicKey) < 2 ? 'arbiter_public_key' : 'buyer_public_key',
      },
    );
  return context.escrows.insert({
    id: newRecordId('esc'),
    organizationId: org.id,
    orgHandle: org.handle,
    description: request.description,
    satoshis: request.satoshis,
    buyerPublicKey: request.buyerPublicKey,
    sellerPublicKey: seller,
    arbiterPublicKey: request.arbiterPublicKey,
    lockScript: multisigLock(2, keys).toHex(),
    ...payeeAddresses(context.chain.network, { seller, buyer: request.buyerPublicKey }, request),
    createdBy: request.createdBy,
    createdAt: context.now(),
  });
}
