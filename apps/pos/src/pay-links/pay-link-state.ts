import { AppError } from '@ctk/shared';
import type { PayLinkWithUses } from '../data/pay-link-repository.js';

export type PayLinkStatus = 'active' | 'disabled' | 'expired' | 'used_up';

/** What the link is now: disabled first (the merchant's word), then expired, then used up (every use paid). */
export function payLinkStatus(link: PayLinkWithUses, now: Date): PayLinkStatus {
  if (link.disabledAt) return 'disabled';
  if (link.expiresAt && link.expiresAt <= now) return 'expired';
  if (link.maxUses > 0n && link.usesPaid >= link.maxUses) return 'used_up';
  return 'active';
}

/**
 * Refuses a new order from a link that takes none: closed (410 `pay_link_closed`), or every use left held
 * by an open order (409: one may expire unpaid and free its use).
 */
export function assertOpenable(link: PayLinkWithUses, now: Date): void {
  const status = payLinkStatus(link, now);
  if (status === 'disabled') throw new AppError('pay_link_closed', 'This pay link was disabled by its merchant', { reason: 'disabled' });
  if (status === 'expired') {
    throw new AppError('pay_link_closed', `This pay link expired at ${link.expiresAt!.toISOString()}`, { reason: 'expired' });
  }
  if (status === 'used_up') {
    throw new AppError('pay_link_closed', `This pay link has been paid its ${link.maxUses} times`, { reason: 'used_up' });
  }
  if (link.maxUses > 0n && link.usesPaid + link.usesHeld >= link.maxUses) {
    throw new AppError(
      'failed_precondition',
      'Every use left of this pay link is held by an order being paid; try again in a few minutes, when one may expire unpaid',
      { reason: 'uses_held' },
    );
  }
}
