import type { IssuePrepaidCardResponse } from '@ctk/proto/ctk/pos/v1/pos';
import { AppError, type CallOptions } from '@ctk/shared';
import { z } from 'zod';
import { messageDesc } from '../contract/contract-registry.js';
import { fromJson } from '../contract/json-mapping.js';
import { messageSchema } from '../contract/message-schema.js';
import type { GatewayDeps } from '../deps.js';
import { handleField } from '../identity/organization-fields.js';
import { orgRef } from '../routes/service-call.js';

const ISSUE = messageDesc('ctk.pos.v1.IssuePrepaidCardRequest');
const HOLDER = messageDesc('ctk.pos.v1.CardHolder');

/**
 * The body of a purchase: the card's value and currency as pos takes them, and the gateway's own fields, as
 * it decides who holds the card (the caller, or for a gift `to` or nobody).
 */
export const purchasePrepaidCardBody = (messageSchema(ISSUE, 'request') as z.ZodObject)
  .pick({ amount_minor: true, currency: true })
  .extend({
    org_handle: handleField.describe('The shop whose card this is'),
    gift: z
      .boolean()
      .optional()
      .describe('A gift: the caller does not hold it (the holder is `to`, or whoever they hand the identifier to)'),
    to: (messageSchema(HOLDER, 'request') as z.ZodObject).optional().describe('For a gift: who holds it'),
  })
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
  const holder = purchase.gift ? { ...fromJson(HOLDER, purchase.to ?? {}), userId: '' } : { userId };
  const { amountMinor, currency } = fromJson(ISSUE, purchase) as { amountMinor: bigint; currency?: string };
  return deps.services.pos.issuePrepaidCard(
    {
      org: orgRef({ ...org, role: null }),
      amountMinor,
      currency: currency ?? '',
      holder,
      publicUrl: deps.config.CTK_PUBLIC_URL,
      createdBy: userId,
      staff: false,
      clientAddress: buyer.clientAddress,
    },
    options,
  );
}
