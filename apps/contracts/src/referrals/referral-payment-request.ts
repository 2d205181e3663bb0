import type { GetReferralPaymentRequestResponse } from '@ctk/proto/ctk/contracts/v1/contracts';
import { AppError } from '@ctk/shared';
import type { ReferralCheckout } from '../data/referral-repository.js';
import { checkoutUrls } from './referral-checkout-message.js';
import { checkoutStatus } from './referral-checkout-state.js';

/** BIP270's network name for BSV. */
const NETWORK = 'bitcoin-sv';

/** The BIP270 payment request of an unpaid checkout (decision 0040): one output, the covenant, for the order and the spend's fee. */
export function referralPaymentRequest(checkout: ReferralCheckout, publicUrl: string, now: Date): GetReferralPaymentRequestResponse {
  const status = checkoutStatus(checkout, now);
  if (status === 'expired') throw new AppError('payment_expired', `Checkout ${checkout.id} expired at ${checkout.expiresAt.toISOString()}`);
  if (status !== 'awaiting_payment')
    throw new AppError('failed_precondition', `Checkout ${checkout.id} is ${status}: it takes no payment`, { reason: status });
  const memo = `Order ${checkout.orderNumber} at ${checkout.orgHandle}, through a referral`;
  return {
    network: NETWORK,
    outputs: [
      {
        script: checkout.covenantScript,
        amount: checkout.satoshis + checkout.feeSatoshis,
        description: 'Covenant paying the shop and the referrer',
      },
    ],
    creationTimestamp: BigInt(Math.floor(checkout.createdAt.getTime() / 1000)),
    expirationTimestamp: BigInt(Math.floor(checkout.expiresAt.getTime() / 1000)),
    memo,
    paymentUrl: checkoutUrls(publicUrl, checkout.id).paymentUrl,
    merchantData: JSON.stringify({ referral_checkout_id: checkout.id }),
  };
}
