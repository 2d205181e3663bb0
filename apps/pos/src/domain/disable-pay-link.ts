import type { Org } from '@ctk/shared';
import type { PayLinkWithUses } from '../data/pay-link-repository.js';
import type { PayLinkContext } from '../pay-links/pay-link-context.js';
import { getOrgPayLink } from './get-pay-link.js';

/**
 * Disables the organisation's link: it refuses new orders from now on; orders already open stay payable
 * (their payers have been shown the amount). Disabling again changes nothing.
 */
export async function disablePayLink(context: PayLinkContext, org: Org, id: string): Promise<PayLinkWithUses> {
  const link = await getOrgPayLink(context, org, id);
  await context.links.disable(link.id, context.orders.now());
  return getOrgPayLink(context, org, id);
}
