import type { PayLink as PayLinkMessage } from '@ctk/proto/ctk/pos/v1/pos';
import type { PayLinkWithUses } from '../data/pay-link-repository.js';
import { payLinkPageUrl } from '../pay-links/pay-link-page.js';
import { payLinkStatus } from '../pay-links/pay-link-state.js';

/**
 * The link as the contract answers it. `organization_id` and `created_by` are for the gateway and the
 * merchant's staff; the gateway's public view leaves them out.
 */
export function toPayLinkMessage(link: PayLinkWithUses, publicUrl: string, now: Date): PayLinkMessage {
  return {
    terms: {
      id: link.id,
      merchantHandle: link.merchantHandle,
      currency: link.currency,
      amountMinor: link.amountMinor,
      minMinor: link.minMinor,
      maxMinor: link.maxMinor,
      memo: link.memo,
      expiresAt: link.expiresAt?.toISOString() ?? '',
    },
    signature: link.signature,
    status: payLinkStatus(link, now),
    maxUses: link.maxUses,
    usesPaid: link.usesPaid,
    usesHeld: link.usesHeld,
    createdAt: link.createdAt.toISOString(),
    disabledAt: link.disabledAt?.toISOString() ?? '',
    pageUrl: payLinkPageUrl(publicUrl, link.id),
    organizationId: link.organizationId,
    createdBy: link.createdBy,
  };
}
