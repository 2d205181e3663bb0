import type { GatewayDeps } from '../deps.js';
import { paymailDomain } from '../paymail/paymail-domain.js';

export type OrderMerchant = { merchant_name?: string; merchant_paymail?: string | null };

/**
 * How the customer's page and the receipt name the shop: its name, and its paymail as the gateway answers
 * paymail (decision 0007: the alias it chose at the host of CTK_PUBLIC_URL), or none without an alias.
 * Not `receipt_merchant`: that is the identifier the on-chain receipt committed to. Kept as credentials are
 * (a rename shows within CTK_AUTH_CACHE_SECONDS on other replicas, at once on this one).
 */
export async function orderMerchant(deps: Pick<GatewayDeps, 'credentials' | 'config'>, handle: string): Promise<OrderMerchant> {
  const org = await deps.credentials.shopName(handle);
  if (!org) return {};
  return { merchant_name: org.name, merchant_paymail: org.paymailAlias ? `${org.paymailAlias}@${paymailDomain(deps.config)}` : null };
}
