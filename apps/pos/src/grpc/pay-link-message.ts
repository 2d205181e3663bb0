import type { PayLink as PayLinkMessage } from '@ctk/proto/ctk/pos/v1/pos';
import type { PayLinkWithUses } from '../data/pay-link-repository.js';
import { payLinkPageUrl, payLinkQrUrl } from '../pay-links/pay-link-page.js';
import { payLinkStatus } from '../pay-links/pay-link-state.js';

/**
 * The link as the contract answers it. `organization_id` and `created_by` are for the gateway and the
 * merchant's staff; the gateway's public view leaves them out. What a link does not have (an amount
 * for bounds, bounds for an amount, a limit, an expiry) is unset: null in the JSON.
 */
export function toPayLinkMessage(link: PayLinkWithUses, publicUrl: string, now: Date): PayLinkMessage {
  const fixed = link.amountMinor > 0n;
  return {
    terms: {
      id: link.id,
      merchantHandle: link.merchantHandle,
      currency: link.currency,
      amountMinor: fixed ? link.amountMinor : undefined,
      minMinor: fixed ? undefined : link.minMinor,
      maxMinor: fixed ? undefined : link.maxMinor,
      memo: link.memo,
      expiresAt: link.expiresAt?.toISOString(),
    },
    signature: link.signature,
    status: payLinkStatus(link, now),
    maxUses: link.maxUses || undefined,
    usesPaid: link.usesPaid,
    usesHeld: link.usesHeld,
    createdAt: link.createdAt.toISOString(),
    disabledAt: link.disabledAt?.toISOString(),
    pageUrl: payLinkPageUrl(publicUrl, link.id),
    qrUrl: payLinkQrUrl(publicUrl, link.id),
    organizationId: link.organizationId,
    createdBy: link.createdBy,
  };
}
