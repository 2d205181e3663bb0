import type { GatewayDeps } from '../deps.js';
import { paymailDomain } from '../paymail/paymail-domain.js';

export type OrderMerchant = { merchant_name?: string; merchant_paymail?: string | null };

/**
 * How the customer's page and the receipt name the shop: its name, and its paymail as the gateway answers
 * paymail (decision 0007: the alias it chose at the host of CTK_PUBLIC_URL), or none without an alias.
 * Not `receipt_merchant`: that is the identifier the on-chain receipt committed to.
 */
export async function orderMerchant(deps: Pick<GatewayDeps, 'prisma' | 'config'>, handle: string): Promise<OrderMerchant> {
  const org = await deps.prisma.organization.findUnique({ where: { handle }, select: { name: true, paymailAlias: true } });
  if (!org) return {};
  return { merchant_name: org.name, merchant_paymail: org.paymailAlias ? `${org.paymailAlias}@${paymailDomain(deps.config)}` : null };
}
