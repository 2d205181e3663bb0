import { AppError } from '@ctk/shared';
import type { ReferralCheckout } from '../data/referral-repository.js';
import type { ContractsContext } from '../domain/contracts-context.js';
import { spendCovenant } from './spend-covenant.js';

export type CheckoutStatus = 'awaiting_payment' | 'funded' | 'paid' | 'expired';

export async function foundCheckout(context: Pick<ContractsContext, 'referrals'>, id: string): Promise<ReferralCheckout> {
  const checkout = await context.referrals.checkoutById(id);
  if (!checkout) throw new AppError('not_found', `No referral checkout ${id}`, { field: 'id' });
  return checkout;
}

/** Where the checkout stands (decision 0040): its covenant spent, funded and waiting for its spend, unpaid, or past its time unpaid. */
export function checkoutStatus(checkout: ReferralCheckout, now: Date): CheckoutStatus {
  if (checkout.spendTxid) return 'paid';
  if (checkout.fundingTransaction) return 'funded';
  return now > checkout.expiresAt ? 'expired' : 'awaiting_payment';
}

/** The checkout, its covenant spent first when it is funded and the spend did not go through before. */
export async function advanceCheckout(context: ContractsContext, checkout: ReferralCheckout): Promise<ReferralCheckout> {
  if (checkoutStatus(checkout, context.now()) !== 'funded') return checkout;
  return spendCovenant(context, checkout).catch((error: unknown) => {
    notSpentYet(context, checkout.id, error);
    return checkout;
  });
}

/** A funded checkout whose spend did not go through (pos or the chain unavailable): the money waits in the covenant, and the next read tries again. */
export function notSpentYet(context: Pick<ContractsContext, 'logger'>, id: string, error: unknown): void {
  context.logger.warn({ err: error, checkout: id }, 'the covenant of a funded referral checkout was not spent yet');
}
