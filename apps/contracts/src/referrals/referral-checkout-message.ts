import type { ReferralCheckout as ReferralCheckoutMessage } from '@ctk/proto/ctk/contracts/v1/contracts';
import type { ReferralCheckout, ReferralLink } from '../data/referral-repository.js';
import { covenantOutputMessages, storedOutputsOf } from './covenant-outputs.js';
import { checkoutStatus } from './referral-checkout-state.js';

/** Where a wallet reads a checkout's payment request and sends its payment, under the origin the caller reached. */
export function checkoutUrls(publicUrl: string, id: string): { paymentRequestUrl: string; paymentUrl: string; payUri: string } {
  const base = `${publicUrl.replace(/\/+$/, '')}/api/v1/referral-checkouts/${id}`;
  const paymentRequestUrl = `${base}/payment-request`;
  return { paymentRequestUrl, paymentUrl: `${base}/payment`, payUri: `pay:?r=${encodeURIComponent(paymentRequestUrl)}` };
}

/** A referral checkout as the API answers it. */
export function toCheckoutMessage(
  checkout: ReferralCheckout,
  link: Pick<ReferralLink, 'itemName' | 'referrerName'>,
  publicUrl: string,
  now: Date,
): ReferralCheckoutMessage {
  const urls = checkoutUrls(publicUrl, checkout.id);
  return {
    id: checkout.id,
    status: checkoutStatus(checkout, now),
    referralLinkId: checkout.referralLinkId,
    orgHandle: checkout.orgHandle,
    orderNumber: checkout.orderNumber,
    itemName: link.itemName,
    referrerName: link.referrerName,
    currency: checkout.currency,
    totalMinor: checkout.totalMinor,
    taxMinor: checkout.taxMinor,
    commissionMinor: checkout.commissionMinor,
    satoshis: checkout.satoshis,
    commissionSatoshis: checkout.commissionSatoshis,
    feeSatoshis: checkout.feeSatoshis,
    fundingSatoshis: checkout.satoshis + checkout.feeSatoshis,
    covenantScript: checkout.covenantScript,
    outputs: covenantOutputMessages(storedOutputsOf(checkout.outputs)),
    fundingTxid: checkout.fundingTransaction ? (checkout.fundingTxid ?? undefined) : undefined,
    spendTxid: checkout.spendTxid ?? undefined,
    paymentRequestUrl: urls.paymentRequestUrl,
    payUri: urls.payUri,
    expiresAt: checkout.expiresAt.toISOString(),
    createdAt: checkout.createdAt.toISOString(),
  };
}
