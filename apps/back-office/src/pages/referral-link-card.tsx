import { useState } from 'preact/hooks';
import { api } from '../api.js';
import { CopyButton } from '../copy-button.js';
import { describe, Problem } from '../form.js';
import { formatDateTime } from '../format.js';
import { linkPriceText, linkShareText, type ReferralLink } from '../referral-links.js';
import { satoshisText } from '../satoshis.js';

/**
 * One of the shop's referral links: the item it sells and its price now, the referrer, their share of each
 * sale (a percentage, and what it comes to on the price), what it sold (paid checkouts) and the commission paid
 * to the referrer's address, and the page the referrer shares, with a button to copy it. While it is open, staff
 * disable it here (`POST /api/v1/orgs/:handle/referral-links/:id/disable`, after a confirmation): it then says
 * since when, and that its page opens no checkout.
 */
export function ReferralLinkCard({
  handle,
  link,
  pricesIncludeTax,
  onChange,
}: {
  handle: string;
  link: ReferralLink;
  pricesIncludeTax: boolean;
  onChange: (link: ReferralLink) => void;
}) {
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const headingId = `referral-link-${link.id}`;
  const disable = async () => {
    if (
      !window.confirm(
        `Disable ${link.referrer_name}'s link to ${link.item_name}? It opens no new checkout; checkouts already open can still be paid.`,
      )
    )
      return;
    setBusy(true);
    setProblem(null);
    try {
      const path = `/api/v1/orgs/${encodeURIComponent(handle)}/referral-links/${encodeURIComponent(link.id)}/disable`;
      onChange(await api<ReferralLink>(path, { method: 'POST' }));
      // The button is gone: the heading, which now says the link is disabled, takes the focus.
      requestAnimationFrame(() => document.getElementById(headingId)?.focus());
    } catch (error) {
      setProblem(describe(error));
    } finally {
      setBusy(false);
    }
  };
  return (
    <li class="card contract">
      <h3 id={headingId} tabIndex={-1}>
        {link.referrer_name}'s link to {link.item_name}
        {link.disabled_at && (
          <>
            {' '}
            <span class="tag disabled">Disabled</span>
          </>
        )}
      </h3>
      {link.disabled_at && (
        <p class="link-disabled">
          Disabled on {formatDateTime(link.disabled_at)}. Buyers can no longer check out through it; a checkout already open can still be
          paid.
        </p>
      )}
      <dl class="facts">
        <dt>Price</dt>
        <dd>{linkPriceText(link)}</dd>
        <dt>Their share</dt>
        <dd>{linkShareText(link, pricesIncludeTax)}</dd>
        <dt>Sales</dt>
        <dd>
          {link.sales} paid checkout{link.sales === 1 ? '' : 's'}
        </dd>
        <dt>Commission paid</dt>
        <dd>{link.commission_paid_satoshis > 0 ? satoshisText(link.commission_paid_satoshis) : 'None yet'}</dd>
        <dt>Made</dt>
        <dd>{formatDateTime(link.created_at)}</dd>
      </dl>
      <dl class="facts keys">
        <dt>Their share is paid to</dt>
        <dd>
          <code>{link.referrer_address}</code>
        </dd>
      </dl>
      <div class="share-link">
        {link.disabled_at ? (
          <p>
            The link {link.referrer_name} shared opens no checkout now:{' '}
            <a class="address" href={link.url}>
              {link.url}
            </a>
          </p>
        ) : (
          <>
            <p>
              The link {link.referrer_name} shares:{' '}
              <a class="address" href={link.url}>
                {link.url}
              </a>
            </p>
            <p class="actions">
              <CopyButton
                text={link.url}
                label="Copy the link"
                copied={`The link is copied: send it to ${link.referrer_name}.`}
                secondary
              />
            </p>
          </>
        )}
      </div>
      <Problem problem={problem} />
      {!link.disabled_at && (
        <p class="actions">
          <button type="button" class="danger" disabled={busy} onClick={() => void disable()} aria-describedby={headingId}>
            Disable this link
          </button>
        </p>
      )}
    </li>
  );
}
