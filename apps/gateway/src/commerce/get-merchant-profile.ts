import type { CallOptions } from '@ctk/shared';
import type { z } from 'zod';
import type { OrgContext } from '../auth/types.js';
import type { GatewayDeps } from '../deps.js';
import { paymailDomain } from '../paymail/paymail-domain.js';
import { orgRef } from '../routes/service-call.js';
import type { merchantProfile } from './commerce-answers.js';

/**
 * The merchant as a shopper's page shows it: the gateway's public facts about the organisation, and
 * commerce's storefront (the catalog's currencies and size).
 */
export async function getMerchantProfile(
  deps: Pick<GatewayDeps, 'prisma' | 'services' | 'config'>,
  org: OrgContext,
  options: CallOptions,
): Promise<z.output<typeof merchantProfile>> {
  const [row, storefront] = await Promise.all([
    deps.prisma.organization.findUniqueOrThrow({
      where: { id: org.id },
      select: { avatarUrl: true, category: true, paymailAlias: true },
    }),
    deps.services.commerce.getStorefront({ org: orgRef(org) }, options),
  ]);
  return {
    handle: org.handle,
    name: org.name,
    avatar_url: row.avatarUrl,
    category: row.category,
    paymail: row.paymailAlias ? `${row.paymailAlias}@${paymailDomain(deps.config)}` : null,
    currency: storefront.currencies[0] ?? null,
    currencies: storefront.currencies,
    items_for_sale: storefront.itemsForSale,
    prices_include_tax: org.pricesIncludeTax,
    accepts_payments: Boolean(org.walletXpub || org.receivingAddress),
  };
}
