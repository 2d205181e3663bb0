import type { PayLink } from '@ctk/proto/ctk/pos/v1/pos';
import { AppError } from '@ctk/shared';
import { minorUnitsOf } from '../routes/answer-schema.js';
import type { PayLinkAnswer, PublicPayLinkAnswer } from './pay-link-answers.js';

/** The link as its organisation's staff see it. */
export function payLinkView(link: PayLink | undefined, publicUrl: string): PayLinkAnswer {
  const known = present(link);
  return {
    ...publicPayLinkView(known, publicUrl),
    max_uses: known.maxUses ? Number(known.maxUses) : null,
    uses_paid: Number(known.usesPaid),
    uses_held: Number(known.usesHeld),
    created_by: known.createdBy,
    created_at: known.createdAt,
    disabled_at: known.disabledAt || null,
  };
}

/** The link as anyone sees it: the signed terms and whether it takes a payment; no organisation id, creator or uses. */
export function publicPayLinkView(link: PayLink | undefined, publicUrl: string): PublicPayLinkAnswer {
  const { terms, signature, status, pageUrl } = present(link);
  const fixed = terms!.amountMinor > 0n;
  return {
    terms: {
      id: terms!.id,
      merchant_handle: terms!.merchantHandle,
      currency: terms!.currency,
      amount_minor: fixed ? minorUnitsOf(terms!.amountMinor) : null,
      min_minor: fixed ? null : minorUnitsOf(terms!.minMinor),
      max_minor: fixed ? null : minorUnitsOf(terms!.maxMinor),
      memo: terms!.memo,
      expires_at: terms!.expiresAt || null,
    },
    signature,
    status: status as PublicPayLinkAnswer['status'],
    page_url: pageUrl,
    qr_url: `${publicUrl.replace(/\/+$/, '')}/api/v1/pay-links/${terms!.id}/qr`,
  };
}

function present(link: PayLink | undefined): PayLink & { terms: NonNullable<PayLink['terms']> } {
  if (!link?.terms) throw new AppError('internal', 'pos answered without the pay link');
  return link as PayLink & { terms: NonNullable<PayLink['terms']> };
}
