import { useState } from 'preact/hooks';
import { api } from '../api.js';
import { CopyButton } from '../copy-button.js';
import { describe, Problem } from '../form.js';
import { formatDateTime, formatMoney } from '../format.js';
import { CHECKOUT_STATUS_TEXT, checkoutNextText, shortTxid, type ReferralCheckout } from '../referral-links.js';
import { groupedSatoshis, satoshisText } from '../satoshis.js';

/**
 * One checkout through a referral link: its order number, where it stands in words, the order's total (and its
 * tax), the referrer's commission in money and satoshis, what the covenant pays the shop, the network fee the
 * buyer paid on top, and the transactions that paid into the covenant and out of it (shortened, copied whole).
 * While it is open, reading it again (`GET /api/v1/referral-checkouts/:id`) moves it on: a funded covenant is spent.
 */
export function ReferralCheckoutCard({
  checkout,
  onChange,
}: {
  checkout: ReferralCheckout;
  onChange: (checkout: ReferralCheckout) => void;
}) {
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const headingId = `referral-checkout-${checkout.id}`;
  const open = checkout.status === 'awaiting_payment' || checkout.status === 'funded';
  const paid = checkout.status === 'paid';
  const reload = async () => {
    setBusy(true);
    setProblem(null);
    try {
      onChange(await api<ReferralCheckout>(`/api/v1/referral-checkouts/${encodeURIComponent(checkout.id)}`, { key: null }));
    } catch (error) {
      setProblem(describe(error));
    } finally {
      setBusy(false);
    }
  };
  return (
    <li class="card contract">
      <h3 id={headingId} tabIndex={-1}>
        Order {checkout.order_number} <span class={`tag ${checkout.status}`}>{CHECKOUT_STATUS_TEXT[checkout.status]}</span>
      </h3>
      <p class="muted">
        {checkout.item_name}, through {checkout.referrer_name}'s link · {formatDateTime(checkout.created_at)}
      </p>
      <dl class="facts">
        <dt>Total</dt>
        <dd>
          {formatMoney(checkout.total_minor, checkout.currency)}
          {checkout.tax_minor > 0 && <small class="zone">of which tax {formatMoney(checkout.tax_minor, checkout.currency)}</small>}
        </dd>
        <dt>{checkout.referrer_name}'s commission</dt>
        <dd>
          {formatMoney(checkout.commission_minor, checkout.currency)}
          <small class="zone">{satoshisText(checkout.commission_satoshis)}</small>
        </dd>
        <dt>{paid ? 'You received' : 'You receive'}</dt>
        <dd>
          {formatMoney(checkout.total_minor - checkout.commission_minor, checkout.currency)}
          <small class="zone">{satoshisText(checkout.satoshis - checkout.commission_satoshis)}</small>
        </dd>
        <dt>Network fee</dt>
        <dd>
          {groupedSatoshis(checkout.fee_satoshis)} satoshi{checkout.fee_satoshis === 1 ? '' : 's'}
          <small class="zone">paid by the buyer, on top</small>
        </dd>
      </dl>
      <p class={`next${paid ? ' done' : ''}`}>{checkoutNextText(checkout)}</p>
      {checkout.funding_txid && (
        <p class="txid">
          The buyer's payment into the covenant: transaction <code title={checkout.funding_txid}>{shortTxid(checkout.funding_txid)}</code>
        </p>
      )}
      {checkout.spend_txid && (
        <p class="txid">
          Paid out to you and the referrer: transaction <code title={checkout.spend_txid}>{shortTxid(checkout.spend_txid)}</code>
        </p>
      )}
      {(checkout.funding_txid || checkout.spend_txid) && (
        <p class="actions">
          {checkout.funding_txid && (
            <CopyButton
              text={checkout.funding_txid}
              label="Copy the payment's txid"
              copied="The whole txid of the buyer's payment is copied."
              secondary
            />
          )}
          {checkout.spend_txid && (
            <CopyButton
              text={checkout.spend_txid}
              label="Copy the payout's txid"
              copied="The whole txid of the payout is copied."
              secondary
            />
          )}
        </p>
      )}
      <Problem problem={problem} />
      {open && (
        <p>
          <button type="button" class="secondary" disabled={busy} onClick={() => void reload()} aria-describedby={headingId}>
            Read again
          </button>
        </p>
      )}
    </li>
  );
}
