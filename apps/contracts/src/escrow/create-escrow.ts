import { multisigLock } from '@ctk/chain';
import type { OrgRef } from '@ctk/proto/ctk/common/v1/common';
import { Order } from '@ctk/proto/ctk/pos/v1/pos';
import { AppError, lineOfText, orgOf, validate } from '@ctk/shared';
import { z } from 'zod';
import type { Escrow } from '../data/escrow-repository.js';
import { Prisma } from '../generated/prisma/client.js';
import { wholeSpendFee } from '../joint/create-joint-transaction.js';
import { inputLockOf } from '../joint/input-lock.js';
import { orderNumberSchema } from '../tokens/order-number.js';
import { orderToEscrow } from './escrow-order.js';
import type { ContractsContext } from '../domain/contracts-context.js';
import { newRecordId } from '../domain/record-id.js';
import { lockedSatoshisSchema, MIN_LOCKED_SATOSHIS, payeeAddresses, publicKeySchema, shopIdentityKey } from '../domain/contract-terms.js';

const createSchema = z
  .object({
    buyerPublicKey: publicKeySchema('buyer_public_key'),
    arbiterPublicKey: publicKeySchema('arbiter_public_key'),
    // One or the other; gRPC says absent as 0 and "".
    satoshis: z.preprocess((value) => (value === 0n ? undefined : value), lockedSatoshisSchema.optional()),
    orderNumber: z.preprocess((value) => (value === '' ? undefined : value), orderNumberSchema.optional()),
    description: lineOfText('description', 200).default(''),
    releaseAddress: z.string().max(100).default(''),
    refundAddress: z.string().max(100).default(''),
    createdBy: z.string().max(100).default(''),
  })
  .refine((request) => (request.satoshis === undefined) !== (request.orderNumber === undefined), {
    message: 'give satoshis (what the lock holds) or order_number (the order it pays), one of them',
    path: ['satoshis'],
  });

/**
 * Agrees an escrow (docs/decisions/0038-escrow.md): the lock OP_2 <buyer> <seller> <arbiter> OP_3
 * OP_CHECKMULTISIG, where the seller's key is the shop's wallet identity key as p2p knows it (the merchant's wallet
 * signs with it), the amount it will hold, and where a release and a refund pay. Three different keys: one
 * party holding two would need no one else. An escrow of one of the shop's open pos orders holds what the order
 * is due plus its release's fee, and keeps the order as pos priced it: a release posts that sale.
 */
export async function createEscrow(context: ContractsContext, orgRef: OrgRef | undefined, input: unknown): Promise<Escrow> {
  const org = orgOf(orgRef);
  const request = validate(createSchema, input);
  const { seller, wallet } = await shopIdentityKey(context, org);
  const keys = [request.buyerPublicKey, seller, request.arbiterPublicKey];
  if (new Set(keys).size !== 3)
    throw new AppError(
      'validation_failed',
      'The buyer, the seller (your wallet identity key) and the arbiter must hold three different keys',
      {
        field: keys.indexOf(request.arbiterPublicKey) < 2 ? 'arbiter_public_key' : 'buyer_public_key',
      },
    );
  const lock = multisigLock(2, keys);
  const order = request.orderNumber ? await orderToEscrow(context, org, request.orderNumber) : undefined;
  // An order's escrow holds what the order is due and the release's fee: released, the shop gets exactly the
  // order's satoshis, and refunded, the buyer gets back what the order asked.
  const satoshis = order ? order.dueSatoshis + wholeSpendFee(context.feeSatsPerKb, inputLockOf(lock, 0)) : request.satoshis!;
  if (satoshis < MIN_LOCKED_SATOSHIS)
    throw new AppError(
      'validation_failed',
      `Order ${order!.orderNumber} is due ${order!.dueSatoshis} satoshis: an escrow holds at least ${MIN_LOCKED_SATOSHIS}`,
      {
        field: 'order_number',
      },
    );
  return context.escrows.insert({
    id: newRecordId('esc'),
    organizationId: org.id,
    orgHandle: org.handle,
    description: request.description || (order ? `Order ${order.orderNumber}` : ''),
    satoshis,
    orderNumber: order?.orderNumber ?? null,
    order: order ? (Order.toJSON(order) as Prisma.InputJsonValue) : Prisma.DbNull,
    buyerPublicKey: request.buyerPublicKey,
    sellerPublicKey: seller,
    arbiterPublicKey: request.arbiterPublicKey,
    lockScript: lock.toHex(),
    ...payeeAddresses(context.chain.network, { seller, buyer: request.buyerPublicKey, wallet }, request),
    createdBy: request.createdBy,
    createdAt: context.now(),
  });
}
