import type { ReferralLink as ReferralLinkMessage } from '@ctk/proto/ctk/contracts/v1/contracts';
import type { Item } from '@ctk/proto/ctk/pos/v1/pos';
import type { ReferralLink } from '../data/referral-repository.js';
import type { ContractsContext } from '../domain/contracts-context.js';

/** pos answers at most this many items a call. */
const ITEMS_PER_CALL = 100;

/**
 * Referral links as the API answers them (all of one organisation): each item's name and price now (the stored
 * name once the item is gone, with no price), and, when staff read them, what each sold.
 */
export async function referralLinkMessages(
  context: Pick<ContractsContext, 'pos' | 'referrals'>,
  links: readonly ReferralLink[],
  options: { withSales: boolean; publicUrl: string },
): Promise<ReferralLinkMessage[]> {
  const first = links[0];
  if (!first) return [];
  const org = { id: first.organizationId, handle: first.orgHandle };
  const ids = [...new Set(links.map((link) => link.itemId))];
  const items = new Map<string, Item>();
  for (let start = 0; start < ids.length; start += ITEMS_PER_CALL) {
    const answer = await context.pos.getItems({ org, ids: ids.slice(start, start + ITEMS_PER_CALL) }, { timeoutMs: 10_000 });
    for (const item of answer.items) items.set(item.id, item);
  }
  const sales = options.withSales ? await context.referrals.salesOf(links.map((link) => link.id)) : new Map();
  return links.map((link) => {
    const item = items.get(link.itemId);
    return {
      id: link.id,
      orgHandle: link.orgHandle,
      itemId: link.itemId,
      itemName: item?.name ?? link.itemName,
      priceMinor: item?.priceCents ?? 0n,
      currency: item?.currency ?? '',
      referrerName: link.referrerName,
      referrerAddress: link.referrerAddress,
      commissionBasisPoints: link.commissionBasisPoints,
      createdAt: link.createdAt.toISOString(),
      sales: sales.get(link.id)?.sales ?? 0n,
      commissionPaidSatoshis: sales.get(link.id)?.commissionPaidSatoshis ?? 0n,
      url: referralPageUrl(options.publicUrl, link.id),
      disabledAt: link.disabledAt?.toISOString(),
    };
  });
}

/** The page a referrer shares (served by the gateway): the item, and a checkout a wallet pays. */
export function referralPageUrl(publicUrl: string, id: string): string {
  return `${publicUrl.replace(/\/+$/, '')}/r/${id}`;
}
