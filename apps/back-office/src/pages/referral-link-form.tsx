import { useState } from 'preact/hooks';
import { api } from '../api.js';
import { CHECK_FIELDS } from '../contract-terms.js';
import { Field, Problem } from '../form.js';
import { basisPointsOf, formatMoney } from '../format.js';
import {
  commissionOn,
  LEAST_SHARE,
  MOST_SHARE,
  shareOnPriceText,
  shareText,
  type ReferralField,
  type ReferralLink,
  type ReferralProblems,
} from '../referral-links.js';
import { looksLikeAddress } from '../wallet-addresses.js';
import { ADDRESS_MISSING, NAME_MISSING, NOT_AN_ADDRESS, referralLinkRefusal, SHARE_BOUNDS } from '../referral-refusals.js';

/** One of the shop's items as `GET /api/v1/orgs/:handle/items` answers it, what a link sells. */
export type SellableItem = { id: string; name: string; price_cents: number; currency: string; available: boolean };

type Props = { handle: string; items: SellableItem[] | null; pricesIncludeTax: boolean; onMade: (link: ReferralLink) => void };

/**
 * "Make a referral link": one of the shop's items for sale, the referrer's name, their wallet's address and
 * their share as a percentage of each sale before tax, said back as money on the item's price as it is typed
 * (`POST /api/v1/orgs/:handle/referral-links`, in basis points). What the page can tell is wrong is said beside
 * its field before anything is sent; the route's refusals (an address of another network) are said there too.
 */
export function ReferralLinkForm({ handle, items, pricesIncludeTax, onMade }: Props) {
  const [itemId, setItemId] = useState('');
  const [share, setShare] = useState('');
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [fields, setFields] = useState<ReferralProblems>({});
  const forSale = (items ?? []).filter((item) => item.available);
  const item = forSale.find((found) => found.id === itemId);

  const refuse = (said: string, about: ReferralProblems, form: HTMLFormElement) => {
    setProblem(said);
    setFields(about);
    requestAnimationFrame(() => form.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus());
  };

  /** An input edited: what was said about it no longer stands. */
  const edited = (event: Event) => {
    const name = (event.target as HTMLInputElement).name as ReferralField;
    if (!fields[name]) return;
    const rest = { ...fields };
    delete rest[name];
    setFields(rest);
    if (problem === CHECK_FIELDS && !Object.values(rest).some(Boolean)) setProblem(null);
  };

  const submit = async (event: Event) => {
    event.preventDefault();
    const element = event.currentTarget as HTMLFormElement;
    const form = new FormData(element);
    const text = (name: ReferralField) => String(form.get(name) ?? '').trim();
    setProblem(null);
    setFields({});
    const typed: ReferralProblems = {};
    if (!item) typed.item_id = 'Choose the item the link sells.';
    if (!text('referrer_name')) typed.referrer_name = NAME_MISSING;
    const address = text('referrer_address');
    if (!address) typed.referrer_address = ADDRESS_MISSING;
    else if (!looksLikeAddress(address)) typed.referrer_address = NOT_AN_ADDRESS;
    const basisPoints = basisPointsOrNull(text('commission_basis_points'));
    if (basisPoints === null) typed.commission_basis_points = SHARE_BOUNDS;
    else if (item && commissionOn(item.price_cents, basisPoints) < 1)
      typed.commission_basis_points = `${shareText(basisPoints)} of ${formatMoney(item.price_cents, item.currency)} comes to nothing: give a bigger share.`;
    if (Object.values(typed).some(Boolean) || basisPoints === null) return refuse(CHECK_FIELDS, typed, element);
    setBusy(true);
    try {
      const link = await api<ReferralLink>(`/api/v1/orgs/${encodeURIComponent(handle)}/referral-links`, {
        method: 'POST',
        body: {
          item_id: itemId,
          referrer_name: text('referrer_name'),
          referrer_address: address,
          commission_basis_points: basisPoints,
        },
      });
      element.reset();
      setItemId('');
      setShare('');
      onMade(link);
    } catch (error) {
      const refused = referralLinkRefusal(error);
      refuse(refused.problem, refused.fields, element);
    } finally {
      setBusy(false);
    }
  };

  const typedShare = share.trim() ? basisPointsOrNull(share) : null;
  const shareSaid =
    typedShare !== null && item
      ? shareOnPriceText(typedShare, item.price_cents, item.currency, pricesIncludeTax)
      : `A percentage of each sale, before tax: from ${shareText(LEAST_SHARE)} to ${shareText(MOST_SHARE)}.`;

  return (
    <section class="card" aria-labelledby="make-link">
      <h2 id="make-link">Make a referral link</h2>
      {items && forSale.length === 0 && (
        <p class="next">
          A link sells one of your items, and you have none for sale yet: add one on the{' '}
          <a href={`/o/${encodeURIComponent(handle)}/pos`}>Point of sale</a> page first.
        </p>
      )}
      <form onSubmit={submit} onInput={edited} noValidate>
        <label class="field">
          <span>Item</span>
          <select
            name="item_id"
            required
            value={itemId}
            aria-invalid={fields.item_id ? true : undefined}
            aria-describedby={fields.item_id ? 'item_id-problem' : undefined}
            onChange={(event) => setItemId((event.currentTarget as HTMLSelectElement).value)}
          >
            <option value="">{items === null ? 'Loading your items…' : 'Choose an item'}</option>
            {forSale.map((choice) => (
              <option key={choice.id} value={choice.id}>
                {choice.name}, {formatMoney(choice.price_cents, choice.currency)}
              </option>
            ))}
          </select>
          {fields.item_id && (
            <small id="item_id-problem" class="field-problem">
              {fields.item_id}
            </small>
          )}
        </label>
        <Field
          label="Referrer's name"
          name="referrer_name"
          required
          maxLength={100}
          autoComplete="off"
          problem={fields.referrer_name}
          hint="Who recommends you: a person, a blog, a local paper."
        />
        <Field
          label="Referrer's wallet address"
          name="referrer_address"
          required
          autoComplete="off"
          autoCapitalize="off"
          spellcheck={false}
          problem={fields.referrer_address}
          hint="Their share of each sale is paid straight to it. pnpm wallet address --json prints it as address."
        />
        <Field
          label="Their share, in %"
          name="commission_basis_points"
          required
          inputMode="decimal"
          autoComplete="off"
          placeholder="10"
          problem={fields.commission_basis_points}
          hint={shareSaid}
          value={share}
          onInput={(event) => setShare((event.currentTarget as HTMLInputElement).value)}
        />
        <Problem problem={problem} />
        <button type="submit" disabled={busy}>
          Make the link
        </button>
      </form>
    </section>
  );
}

/** A share as typed ("10", "12.5", "10%") in basis points, or null when it is not one within the bounds. */
function basisPointsOrNull(text: string): number | null {
  try {
    const basisPoints = basisPointsOf(text);
    return basisPoints >= LEAST_SHARE && basisPoints <= MOST_SHARE ? basisPoints : null;
  } catch {
    return null;
  }
}
