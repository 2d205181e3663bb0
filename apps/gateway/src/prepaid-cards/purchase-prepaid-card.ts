import type { IssuePrepaidCardResponse } from '@ctk/proto/ctk/pos/v1/pos';
import { AppError, type CallOptions } from '@ctk/shared';
import { z } from 'zod';
import type { GatewayDeps } from '../deps.js';
import { handleField } from '../identity/organization-fields.js';
import { orgRef } from '../routes/service-call.js';

const holder = z
  .object({
    address: z.string().max(100).optional().describe("The customer's P2PKH address"),
    public_key: z.string().max(132).optional().describe('Or their compressed public key, hex (its address is kept beside it)'),
  })
  .strict();

/** The body of a purchase: the gateway's own, as it decides who holds the card (the caller, or for a gift `to` or nobody). */
export const purchasePrepaidCardBody = z
  .object({
    org_handle: handleField.describe('The shop whose card this is'),
    amount_minor: z.number().int().describe('The card value in minor units of its currency (1 to 100,000,000)'),
    currency: z.string().max(3).optional().describe("ISO 4217; absent: the organisation's (its items', else its jurisdiction's)"),
    gift: z
      .boolean()
      .optional()
      .describe('A gift: the caller does not hold it (the holder is `to`, or whoever they hand the identifier to)'),
    to: holder.optional().describe('For a gift: who holds it'),
  })
  .strict()
  .refine((body) => !body.to || body.gift === true, { message: 'to names the holder of a gift: send "gift": true with it', path: ['to'] });

/**
 * A customer buys a prepaid card of a shop (decision 0017): any caller may, so no role is asked. The
 * gateway resolves the shop as for staff's orders (its id and handle; pos asks p2p and books for its wallet
 * and tax settings, decision 0028), and pos issues a pending card and the order that sells it, held by the
 * caller, or for a gift by `to` or nobody (the buyer hands the identifier on).
 */
export async function purchasePrepaidCard(
  deps: GatewayDeps,
  purchase: z.infer<typeof purchasePrepaidCardBody>,
  buyer: { userId: string; clientAddress: string },
  options: CallOptions,
): Promise<IssuePrepaidCardResponse> {
  const { userId } = buyer;
  const org = await deps.credentials.org(purchase.org_handle);
  if (!org) throw new AppError('not_found', `No organisation with handle "${purchase.org_handle}".`);
  const holder = purchase.gift ? { address: purchase.to?.address, publicKey: purchase.to?.public_key, userId: '' } : { userId };
  return deps.services.pos.issuePrepaidCard(
    {
      org: orgRef({ ...org, role: null }),
      amountMinor: BigInt(purchase.amount_minor),
      currency: purchase.currency ?? '',
      holder,
      publicUrl: deps.config.CTK_PUBLIC_URL,
      createdBy: userId,
      staff: false,
      clientAddress: buyer.clientAddress,
    },
    options,
  );
}
