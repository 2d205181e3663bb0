import { CopyButton } from '../copy-button.js';
import { formatDateTime } from '../format.js';
import { linkPriceText, linkShareText, type ReferralLink } from '../referral-links.js';
import { satoshisText } from '../satoshis.js';

/**
 * One of the shop's referral links: the item it sells and its price now, the referrer, their share of each
 * sale (a percentage, and what it comes to on the price), what it sold (paid checkouts) and the commission paid
 * to the referrer's address, and the page the referrer shares, with a button to copy it.
 */
export function ReferralLinkCard({ link, pricesIncludeTax }: { link: ReferralLink; pricesIncludeTax: boolean }) {
  const headingId = `referral-link-${link.id}`;
  return (
    <li class="card contract">
      <h3 id={headingId} tabIndex={-1}>
        {link.referrer_name}'s link to {link.item_name}
      </h3>
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
        <p>
          The link {link.referrer_name} shares:{' '}
          <a class="address" href={link.url}>
            {link.url}
          </a>
        </p>
        <p class="actions">
          <CopyButton text={link.url} label="Copy the link" copied={`The link is copied: send it to ${link.referrer_name}.`} secondary />
        </p>
      </div>
    </li>
  );
}
