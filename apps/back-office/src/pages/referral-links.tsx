import { useEffect, useState } from 'preact/hooks';
import { api, type Page } from '../api.js';
import { describe, Problem } from '../form.js';
import type { ReferralCheckout, ReferralLink } from '../referral-links.js';
import type { ShopWallet } from '../wallet-addresses.js';
import { ReferralCheckoutCard } from './referral-checkout-card.js';
import { ReferralLinkCard } from './referral-link-card.js';
import { ReferralLinkForm, type SellableItem } from './referral-link-form.js';

/**
 * `/o/:handle/referral-covenant`: referral links (decision 0040). What they are, in plain words; a form to make
 * one for an item with a referrer's name, wallet address and share (referral-link-form.tsx); the shop's links
 * (`GET /api/v1/orgs/:handle/referral-links`, staff), each with its share, sales and the page the referrer
 * shares, and a button to disable it (referral-link-card.tsx); and every checkout through them (`GET /api/v1/orgs/:handle/referral-checkouts`),
 * each with where it stands and every amount it moved (referral-checkout-card.tsx).
 */
export function ReferralLinksPage({ handle }: { handle: string }) {
  const [shop, setShop] = useState<Shop | null>(null);
  const [items, setItems] = useState<SellableItem[] | null>(null);
  const [links, setLinks] = useState<ReferralLink[] | null>(null);
  const [checkouts, setCheckouts] = useState<ReferralCheckout[] | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  useEffect(() => {
    const org = `/api/v1/orgs/${encodeURIComponent(handle)}`;
    const failed = (error: unknown) => setProblem(describe(error));
    api<Shop>(`/api/v1/organizations/${encodeURIComponent(handle)}`).then(setShop, failed);
    api<Page<SellableItem>>(`${org}/items?limit=100`).then((page) => setItems(page.data), failed);
    api<{ data: ReferralLink[] }>(`${org}/referral-links`).then((answer) => setLinks(answer.data), failed);
    api<{ data: ReferralCheckout[] }>(`${org}/referral-checkouts`).then((answer) => setCheckouts(answer.data), failed);
  }, [handle]);
  const made = (link: ReferralLink) => {
    setLinks((list) => [link, ...(list ?? [])]);
    // The new link's heading takes the focus: a screen reader hears it, and a phone scrolls to it.
    requestAnimationFrame(() => document.getElementById(`referral-link-${link.id}`)?.focus());
  };
  const replaceLink = (link: ReferralLink) => setLinks((list) => (list ?? []).map((known) => (known.id === link.id ? link : known)));
  const replace = (checkout: ReferralCheckout) =>
    setCheckouts((list) => (list ?? []).map((known) => (known.id === checkout.id ? checkout : known)));
  const includesTax = shop?.prices_include_tax ?? false;
  return (
    <>
      <h1>Referral covenant: referral links</h1>
      <ReferralExplained />
      <Problem problem={problem} />
      {shop && !shop.receiving_address && !shop.wallet_xpub && (
        <p class="next">
          Buyers pay your share into your own wallet, and the shop has none registered yet: add your wallet in{' '}
          <a href="/settings">Settings</a> first, or checkouts through your links are refused.
        </p>
      )}
      <ReferralLinkForm handle={handle} items={items} pricesIncludeTax={includesTax} onMade={made} />
      <section aria-labelledby="your-links">
        <h2 id="your-links">Your referral links</h2>
        {links === null && !problem && <p aria-busy="true">Loading…</p>}
        {links?.length === 0 && <p>No links yet. Make one above.</p>}
        <ul class="entries">
          {links?.map((link) => (
            <ReferralLinkCard key={link.id} handle={handle} link={link} pricesIncludeTax={includesTax} onChange={replaceLink} />
          ))}
        </ul>
      </section>
      <section aria-labelledby="checkouts">
        <h2 id="checkouts">Checkouts through your links</h2>
        {checkouts === null && !problem && <p aria-busy="true">Loading…</p>}
        {checkouts?.length === 0 && <p>None yet. When a buyer checks out through one of your links, it shows here.</p>}
        <ul class="entries">
          {checkouts?.map((checkout) => (
            <ReferralCheckoutCard key={checkout.id} checkout={checkout} onChange={replace} />
          ))}
        </ul>
      </section>
    </>
  );
}

/** The organisation's read (`GET /api/v1/organizations/:handle`): where it is paid, and whether its prices include tax. */
type Shop = ShopWallet & { wallet_xpub?: string | null; prices_include_tax?: boolean };

/** What a referral link is, in plain words. */
function ReferralExplained() {
  return (
    <section class="card" aria-labelledby="what">
      <h2 id="what">What it does for you</h2>
      <p>
        Someone who recommends you, a regular, a blog or a local paper, shares a link to one of your items. When a buyer pays through it,
        the referrer gets their share of the sale straight away, in the same payment.
      </p>
      <ul>
        <li>
          The buyer pays into a <strong>covenant</strong>: a script on the chain that can only pay <strong>you</strong> and{' '}
          <strong>the referrer</strong>, the amounts fixed at checkout.
        </li>
        <li>Nobody can send the money anywhere else, this service included.</li>
        <li>The share is worked out on the item's price before tax.</li>
        <li>
          The referrer's commission shows in your books as <strong>5100 Referral commissions</strong>.
        </li>
      </ul>
    </section>
  );
}
