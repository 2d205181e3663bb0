import type { CallOptions } from '@ctk/shared';
import type { z } from 'zod';
import type { OrgContext } from '../auth/types.js';
import type { GatewayDeps } from '../deps.js';
import { paymailDomain } from '../paymail/paymail-domain.js';
import { readOwnerFacts } from '../identity/owner-facts.js';
import { orgRef } from '../routes/service-call.js';
import type { merchantProfile } from './commerce-answers.js';

/**
 * The merchant as a shopper's page shows it: the gateway's public facts about the organisation, whether
 * its prices include tax (books') and it can be paid (p2p's wallet), and commerce's storefront (the
 * catalog's currencies and size).
 */
export async function getMerchantProfile(
  deps: Pick<GatewayDeps, 'prisma' | 'services' | 'config'>,
  org: OrgContext,
  options: CallOptions,
): Promise<z.output<typeof merchantProfile>> {
  const [row, storefront, [facts]] = await Promise.all([
    deps.prisma.organization.findUniqueOrThrow({
      where: { id: org.id },
      select: { avatarUrl: true, category: true, paymailAlias: true },
    }),
    deps.services.commerce.getStorefront({ org: orgRef(org) }, options),
    readOwnerFacts(deps, [org.id], options),
  ]);
  const { wallet, tax } = facts!;
  return {
    handle: org.handle,
    name: org.name,
    avatar_url: row.avatarUrl,
    category: row.category,
    paymail: row.paymailAlias ? `${row.paymailAlias}@${paymailDomain(deps.config)}` : null,
    currency: storefront.currencies[0] ?? null,
    currencies: storefront.currencies,
    items_for_sale: storefront.itemsForSale,
    prices_include_tax: tax.pricesIncludeTax,
    accepts_payments: Boolean(wallet.walletXpub || wallet.receivingAddress),
  };
}
