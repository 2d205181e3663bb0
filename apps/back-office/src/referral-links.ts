import { formatDateTime, formatMoney, percentOfRate } from './format.js';

/**
 * A referral link as the contracts routes answer it (decision 0040): one of the shop's items, a referrer and
 * their share of each sale in basis points, and what it sold. `price_minor` and `currency` are the item's now:
 * 0 and '' once the item is gone.
 */
export type ReferralLink = {
  id: string;
  org_handle: string;
  item_id: string;
  item_name: string;
  price_minor: number;
  currency: string;
  referrer_name: string;
  referrer_address: string;
  commission_basis_points: number;
  created_at: string;
  /** Its paid checkouts. */
  sales: number;
  commission_paid_satoshis: number;
  /** The page the referrer shares: `<public URL>/r/<id>`. */
  url: string;
  /** When staff disabled it (`POST .../referral-links/:id/disable`): it opens no checkout since. Null while it is open. */
  disabled_at?: string | null;
};

export type CheckoutStatus = 'awaiting_payment' | 'funded' | 'paid' | 'expired';

/** One output of a checkout's covenant spend: the shop's, the referrer's, the receipt. */
export type CovenantOutput = { script: string; address?: string | null; satoshis: number; description: string };

/**
 * A checkout through a referral link: a pos order whose payment goes into a covenant (a script) that can only
 * pay the shop and the referrer the amounts fixed here. `satoshis` is the order's, the referrer's commission
 * included; the buyer pays `funding_satoshis`, that and the fee of the covenant's spend.
 */
export type ReferralCheckout = {
  id: string;
  status: CheckoutStatus;
  referral_link_id: string;
  org_handle: string;
  order_number: string;
  item_name: string;
  referrer_name: string;
  currency: string;
  total_minor: number;
  tax_minor: number;
  commission_minor: number;
  satoshis: number;
  commission_satoshis: number;
  fee_satoshis: number;
  funding_satoshis: number;
  covenant_script: string;
  outputs: CovenantOutput[];
  funding_txid?: string | null;
  spend_txid?: string | null;
  payment_request_url: string;
  pay_uri: string;
  expires_at: string;
  created_at: string;
};

/** The form's inputs, by the names the route gives them. */
export type ReferralField = 'item_id' | 'referrer_name' | 'referrer_address' | 'commission_basis_points';
export type ReferralProblems = Partial<Record<ReferralField, string>>;
export const REFERRAL_FIELDS: ReferralField[] = ['item_id', 'referrer_name', 'referrer_address', 'commission_basis_points'];

/** The least and the most a referrer may be given of a sale, in basis points (the contracts service's bounds). */
export const LEAST_SHARE = 1;
export const MOST_SHARE = 5_000;

/** A share in basis points as a percentage to read, by its digits: 1000 is "10%", 1250 "12.5%", 1 "0.01%". */
export function shareText(basisPoints: number): string {
  return percentOfRate(`0.${String(basisPoints).padStart(4, '0')}`.replace(/\.?0+$/, ''));
}

/** What a share comes to on a price in minor units, as pos fixes it at checkout: rounded down to the minor unit. */
export function commissionOn(priceMinor: number, basisPoints: number): number {
  return Math.floor((priceMinor * basisPoints) / 10_000);
}

/** A link's item price in its currency, or that the item is no longer sold. */
export function linkPriceText(link: Pick<ReferralLink, 'price_minor' | 'currency'>): string {
  return link.currency ? formatMoney(link.price_minor, link.currency) : 'No longer sold';
}

/**
 * A link's share in words: "10%: $0.40 a sale". Where prices include tax, the share is of the price less its
 * tax: "10%: at most $0.40 a sale".
 */
export function linkShareText(
  link: Pick<ReferralLink, 'price_minor' | 'currency' | 'commission_basis_points'>,
  pricesIncludeTax: boolean,
): string {
  const share = shareText(link.commission_basis_points);
  if (!link.currency) return share;
  const money = formatMoney(commissionOn(link.price_minor, link.commission_basis_points), link.currency);
  return `${share}: ${pricesIncludeTax ? 'at most ' : ''}${money} a sale`;
}

/** What a share typed comes to on an item's price, in words for the form. */
export function shareOnPriceText(basisPoints: number, priceMinor: number, currency: string, pricesIncludeTax: boolean): string {
  const share = shareText(basisPoints);
  const price = formatMoney(priceMinor, currency);
  const money = formatMoney(commissionOn(priceMinor, basisPoints), currency);
  return pricesIncludeTax
    ? `${share} of ${price} less its tax: at most ${money} on each sale.`
    : `${share} of ${price} is ${money} on each sale, before tax.`;
}

/** Where a checkout stands, in a few words. */
export const CHECKOUT_STATUS_TEXT: Record<CheckoutStatus, string> = {
  awaiting_payment: 'Waiting for payment',
  funded: 'Paid into the covenant',
  paid: 'Paid',
  expired: 'Expired unpaid',
};

/** What it means for the shop, in words. */
export function checkoutNextText(checkout: ReferralCheckout): string {
  switch (checkout.status) {
    case 'awaiting_payment':
      return `The buyer has until ${formatDateTime(checkout.expires_at)} to pay. Nothing has moved yet.`;
    case 'funded':
      return "The buyer's money is in the covenant, and it is paying out to you and the referrer. Read the page again in a moment.";
    case 'paid':
      return 'The covenant paid you and the referrer. The commission is in your books under 5100 Referral commissions.';
    case 'expired':
      return 'The buyer did not pay in time. Nothing moved.';
  }
}

/** A transaction id, shortened to read: "5b91a2c4…f09ed6". */
export const shortTxid = (txid: string) => `${txid.slice(0, 8)}…${txid.slice(-6)}`;
