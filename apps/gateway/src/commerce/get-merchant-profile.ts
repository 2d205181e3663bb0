import type { CommerceMerchant } from '@ctk/proto/ctk/commerce/v1/commerce';
import type { CallOptions } from '@ctk/shared';
import type { OrgContext } from '../auth/types.js';
import type { GatewayDeps } from '../deps.js';
import { paymailDomain } from '../paymail/paymail-domain.js';
import { readOwnerFacts } from '../identity/owner-facts.js';
import { orgRef } from '../routes/service-call.js';

/**
 * The merchant as a shopper's page shows it: the gateway's public facts about the organisation, whether
 * its prices include tax (books') and it can be paid (p2p's wallet), and commerce's storefront (the
 * catalog's currencies and size): the contract's CommerceMerchant, which no one service answers.
 */
export async function getMerchantProfile(
  deps: Pick<GatewayDeps, 'prisma' | 'services' | 'config'>,
  org: OrgContext,
  options: CallOptions,
): Promise<CommerceMerchant> {
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
    avatarUrl: row.avatarUrl ?? undefined,
    category: row.category ?? undefined,
    paymail: row.paymailAlias ? `${row.paymailAlias}@${paymailDomain(deps.config)}` : undefined,
    currency: storefront.currencies[0],
    currencies: storefront.currencies,
    itemsForSale: storefront.itemsForSale,
    pricesIncludeTax: tax.pricesIncludeTax,
    acceptsPayments: Boolean(wallet.walletXpub || wallet.receivingAddress),
  };
}
