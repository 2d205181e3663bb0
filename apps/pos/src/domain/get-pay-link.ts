import { AppError, type Org } from '@ctk/shared';
import { z } from 'zod';
import type { PayLinkWithUses } from '../data/pay-link-repository.js';
import type { PayLinkContext } from '../pay-links/pay-link-context.js';

const linkId = z.guid();

/** The link of a public id; not_found for an id no link has (or that is no id: nothing is looked up). */
export async function getPayLink(context: PayLinkContext, id: string): Promise<PayLinkWithUses> {
  if (!linkId.safeParse(id).success) throw new AppError('not_found', 'No such pay link');
  const link = await context.links.byId(id, context.orders.now());
  if (!link) throw new AppError('not_found', 'No such pay link');
  return link;
}

/** The link as the organisation's staff see it: another organisation's link is not found, as if it did not exist. */
export async function getOrgPayLink(context: PayLinkContext, org: Org, id: string): Promise<PayLinkWithUses> {
  const link = await getPayLink(context, id);
  if (link.organizationId !== org.id) throw new AppError('not_found', `No such pay link in ${org.handle}`);
  return link;
}
