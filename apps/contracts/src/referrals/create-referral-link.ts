import { networkAddress } from '@ctk/chain';
import type { OrgRef } from '@ctk/proto/ctk/common/v1/common';
import type { Item } from '@ctk/proto/ctk/pos/v1/pos';
import { AppError, lineOfText, orgOf, validate } from '@ctk/shared';
import { z } from 'zod';
import type { ReferralLink } from '../data/referral-repository.js';
import type { ContractsContext } from '../domain/contracts-context.js';
import { newRecordId } from '../domain/record-id.js';

/** The most a referrer may be given of a sale: half of it (pos holds the same bound). */
const MAX_COMMISSION_BASIS_POINTS = 5_000;

const createSchema = z.object({
  itemId: z.guid('item_id must be an item id (a UUID)'),
  referrerName: lineOfText('referrer_name', 100).refine((name) => name.trim().length > 0, 'referrer_name is required: who refers the item'),
  referrerAddress: z.string().min(1, 'referrer_address is required: where the commission is paid').max(100),
  commissionBasisPoints: z
    .number()
    .int()
    .min(1, 'commission_basis_points must be at least 1 (0.01%)')
    .max(MAX_COMMISSION_BASIS_POINTS, `commission_basis_points must be at most ${MAX_COMMISSION_BASIS_POINTS} (50%)`),
  createdBy: z.string().max(100).default(''),
});

/**
 * Makes a referral link (docs/decisions/0040-referral-covenants.md): one of the shop's items, available now, a
 * referrer's name, the P2PKH address of the chain's network their commission is paid to, and their share in
 * basis points of each sale before tax.
 */
export async function createReferralLink(context: ContractsContext, orgRef: OrgRef | undefined, input: unknown): Promise<ReferralLink> {
  const org = orgOf(orgRef);
  const request = validate(createSchema, input);
  const referrerAddress = networkAddress(request.referrerAddress, context.chain.network, 'referrer_address');
  const item = await itemOf(context, { id: org.id, handle: org.handle }, request.itemId);
  if (!item) throw new AppError('validation_failed', `No item ${request.itemId} in this organisation`, { field: 'item_id' });
  if (!item.available) throw new AppError('validation_failed', `"${item.name}" is not available`, { field: 'item_id' });
  return context.referrals.insertLink({
    id: newRecordId('ref'),
    organizationId: org.id,
    orgHandle: org.handle,
    itemId: item.id,
    itemName: item.name,
    referrerName: request.referrerName.trim(),
    referrerAddress,
    commissionBasisPoints: request.commissionBasisPoints,
    createdBy: request.createdBy,
    createdAt: context.now(),
  });
}

/** The organisation's item as pos has it now; undefined once it is gone. */
async function itemOf(context: Pick<ContractsContext, 'pos'>, org: OrgRef, itemId: string): Promise<Item | undefined> {
  const { items } = await context.pos.getItems({ org, ids: [itemId] }, { timeoutMs: 10_000 });
  return items[0];
}
