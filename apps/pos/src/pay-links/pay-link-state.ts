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
 * Refuses a new order from a link that takes none: closed (410 `pay_link_closed`). Open orders hold no use
 * (decision 0024): several payers may each have one, the first paid takes the use and the others are
 * cancelled, so one payer who never pays blocks nobody.
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
}

/**
 * 429 when the client address already holds `max` unpaid orders of the limited link (decision 0024): pay one
 * or let one expire; the retry hint is when the first of them expires.
 */
export function assertClientMayOpen(held: { count: number; firstExpiry: Date | null }, max: number, now: Date): void {
  if (held.count < max) return;
  const seconds = held.firstExpiry ? Math.max(1, Math.ceil((held.firstExpiry.getTime() - now.getTime()) / 1000)) : 60;
  throw new AppError(
    'rate_limited',
    `This address holds ${held.count} unpaid orders of this pay link already; one address holds at most ${max} at once. Pay one, or retry after ${seconds} s when one expires.`,
    { held_orders: held.count, max_orders: max, retry_after_seconds: seconds },
  );
}
