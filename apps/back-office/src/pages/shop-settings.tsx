import { buyButtonSnippet } from '@ctk/shared/buy-button';
import { useEffect, useState } from 'preact/hooks';
import { api, type Page } from '../api.js';
import { describe, Field, Problem, useSubmit } from '../form.js';
import { formatMoney } from '../format.js';
import { JurisdictionSelect } from '../jurisdiction-select.js';
import { TimeZoneSelect } from '../time-zone-select.js';
import { rememberShopTimeZone } from './capability.js';
import { SecretOnce } from '../secret-once.js';
import { PaygateKeys, ProviderSecrets } from './shop-integrations.js';
import { ShopLocation } from './shop-location.js';

type Organization = {
  handle: string;
  name: string;
  jurisdiction: string | null;
  time_zone: string;
  prices_include_tax: boolean;
  receiving_address: string | null;
  wallet_xpub: string | null;
  paymail: string | null;
  commerce_public_key: string | null;
  category: string | null;
  location: { latitude: number; longitude: number } | null;
};
type Member = { user_id: string; name: string | null; email: string | null; did: string | null; role: Role };
type Role = 'owner' | 'admin' | 'staff';

/** An organisation's settings an admin keeps: its wallet, paymail and tax, the Buy button, its members, its providers' secrets and its payment-gate keys. */
export function ShopSettings({ handle, role }: { handle: string; role: Role }) {
  const [org, setOrg] = useState<Organization | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const load = () => api<Organization>(`/api/v1/organizations/${handle}`).then(setOrg, (error) => setProblem(describe(error)));
  useEffect(() => void load(), [handle]);
  if (role === 'staff') return null;
  return (
    <section class="card" aria-labelledby={`shop-${handle}`}>
      <h2 id={`shop-${handle}`}>{org?.name ?? handle}</h2>
      <Problem problem={problem} />
      {org && <ShopFacts org={org} onSaved={setOrg} />}
      {org && <ShopLocation org={org} onSaved={load} />}
      {org && <BuyButton org={org} onKeyMade={load} />}
      <Members handle={handle} />
      <ProviderSecrets handle={handle} />
      <PaygateKeys handle={handle} />
    </section>
  );
}

function ShopFacts({ org, onSaved }: { org: Organization; onSaved: (org: Organization) => void }) {
  const [saved, setSaved] = useState(false);
  const { submit, busy, problem } = useSubmit(async (form) => {
    setSaved(false);
    const wallet = String(form.get('wallet') ?? '').trim();
    const alias = String(form.get('paymail_alias') ?? '').trim();
    const body = {
      ...(form.get('jurisdiction') ? { jurisdiction: form.get('jurisdiction') } : {}),
      prices_include_tax: form.get('prices_include_tax') === 'on',
      ...(wallet ? (/^[xt]pub/.test(wallet) ? { wallet_xpub: wallet } : { receiving_address: wallet }) : {}),
      ...(alias ? { paymail_alias: alias } : {}),
      time_zone: form.get('time_zone'),
    };
    const saved = await api<Organization>(`/api/v1/organizations/${org.handle}`, { method: 'PATCH', body });
    rememberShopTimeZone(saved.handle, saved.time_zone);
    onSaved(saved);
    setSaved(true);
  });
  return (
    <form onSubmit={submit} noValidate aria-label="Wallet, paymail and tax">
      <h3>Wallet, paymail and tax</h3>
      <Field
        label="Wallet"
        name="wallet"
        defaultValue={org.wallet_xpub ?? org.receiving_address ?? ''}
        hint="An xpub gives each payment a fresh address; an address is used as it is."
        autoComplete="off"
        spellcheck={false}
      />
      <Field
        label="Paymail alias"
        name="paymail_alias"
        defaultValue={org.paymail?.split('@')[0] ?? ''}
        hint={org.paymail ? `Customers pay ${org.paymail}.` : 'Customers pay alias@this-site.'}
        autoComplete="off"
        spellcheck={false}
      />
      <JurisdictionSelect label="Where you sell (sales tax)" value={org.jurisdiction} />
      <TimeZoneSelect value={org.time_zone} />
      <label class="check">
        <input type="checkbox" name="prices_include_tax" defaultChecked={org.prices_include_tax} />
        <span>Prices include tax</span>
      </label>
      <Problem problem={problem} />
      <p class="actions">
        <button type="submit" disabled={busy}>
          {busy ? 'Saving…' : 'Save'}
        </button>
        {saved && <span role="status">Saved.</span>}
      </p>
    </form>
  );
}

type CatalogItem = { id: string; name: string; price_minor: number; currency: string };

/** The Buy button for the merchant's own site: the commerce key, and the snippet for an item, with the script's SRI hash. */
function BuyButton({ org, onKeyMade }: { org: Organization; onKeyMade: () => void }) {
  const [items, setItems] = useState<CatalogItem[]>([]);
  const [item, setItem] = useState<string>('');
  const [integrity, setIntegrity] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const key = org.commerce_public_key;
  useEffect(() => {
    if (!key) return;
    fetch(`/api/v1/commerce/${org.handle}/catalog`, { headers: { 'x-commerce-key': key } })
      .then((response) => response.json() as Promise<{ items: CatalogItem[] }>)
      .then((catalog) => {
        setItems(catalog.items);
        setItem(catalog.items[0]?.id ?? '');
      })
      .catch(() => setProblem('The catalog could not be read.'));
    // The hash of the script as this instance serves it: the snippet's integrity is always the file's.
    fetch('/checkout/v2/checkout.js')
      .then((response) => response.arrayBuffer())
      .then((bytes) => crypto.subtle.digest('SHA-384', bytes))
      .then((digest) => setIntegrity(`sha384-${btoa(String.fromCharCode(...new Uint8Array(digest)))}`))
      .catch(() => setProblem('The Buy button script could not be read.'));
  }, [key]);
  const make = useSubmit(async () => {
    await api(`/api/v1/orgs/${org.handle}/commerce-key`, { method: 'POST', body: {} });
    onKeyMade();
  });
  const snippet =
    key && integrity && item
      ? buyButtonSnippet({ src: `${location.origin}/checkout/v2/checkout.js`, integrity }, { merchant: org.handle, item, commerceKey: key })
      : '';
  return (
    <div aria-labelledby={`buy-${org.handle}`}>
      <h3 id={`buy-${org.handle}`}>Buy button</h3>
      {!key ? (
        <form onSubmit={make.submit}>
          <p>Sell from your own web site: make the commerce key (publishable: it goes in your page), then copy a button.</p>
          <Problem problem={make.problem} />
          <button type="submit" disabled={make.busy}>
            Make the commerce key
          </button>
        </form>
      ) : items.length === 0 ? (
        <p>Add items to your catalog first: each button sells one item.</p>
      ) : (
        <>
          <div class="field">
            <label for={`buy-item-${org.handle}`}>Item</label>
            <select id={`buy-item-${org.handle}`} value={item} onChange={(event) => setItem((event.target as HTMLSelectElement).value)}>
              {items.map((i) => (
                <option value={i.id} key={i.id}>
                  {i.name}, {formatMoney(i.price_minor, i.currency)}
                </option>
              ))}
            </select>
          </div>
          <label class="field">
            <span>Paste this into your page</span>
            <textarea readOnly rows={6} value={snippet} class="snippet" />
          </label>
          <button type="button" class="secondary" onClick={() => navigator.clipboard.writeText(snippet)}>
            Copy the snippet
          </button>
        </>
      )}
      <Problem problem={problem} />
    </div>
  );
}

/** The organisation's members: added with a role (their first key shown once), their role changed, removed. */
function Members({ handle }: { handle: string }) {
  const [members, setMembers] = useState<Member[]>([]);
  const [issued, setIssued] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const load = () =>
    api<Page<Member>>(`/api/v1/orgs/${handle}/members?limit=100`).then(
      (page) => setMembers(page.data),
      (error) => setProblem(describe(error)),
    );
  useEffect(() => void load(), [handle]);
  const add = useSubmit(async (form) => {
    const email = String(form.get('email') ?? '').trim();
    const added = await api<{ api_key: { key: string } | null }>(`/api/v1/orgs/${handle}/members`, {
      method: 'POST',
      body: { name: String(form.get('name') ?? '').trim(), ...(email ? { email } : {}), role: form.get('role') },
    });
    (document.getElementById(`add-member-${handle}`) as HTMLFormElement | null)?.reset();
    setIssued(added.api_key?.key ?? null);
    await load();
  });
  const act = async (path: string, init: { method: 'PATCH' | 'DELETE'; body?: unknown }) => {
    setProblem(null);
    try {
      await api(`/api/v1/orgs/${handle}/members/${path}`, init);
      await load();
    } catch (error) {
      setProblem(describe(error));
    }
  };
  return (
    <div>
      <h3>Members</h3>
      {issued && (
        <SecretOnce
          title="Their API key"
          secret={issued}
          note="Give it to them: it is shown only now. They sign in with it on the start page."
          onDone={() => setIssued(null)}
        />
      )}
      <ul class="members">
        {members.map((m) => (
          <li key={m.user_id}>
            <span>
              {memberName(m)} <span class="tag">{m.role}</span>
            </span>
            {m.role !== 'owner' && (
              <span class="actions">
                <button
                  type="button"
                  class="secondary"
                  onClick={() => act(m.user_id, { method: 'PATCH', body: { role: m.role === 'staff' ? 'admin' : 'staff' } })}
                >
                  Make {m.role === 'staff' ? 'admin' : 'staff'}
                </button>
                <button
                  type="button"
                  class="danger"
                  aria-label={`Remove ${memberName(m)}`}
                  onClick={() => window.confirm(`Remove ${memberName(m)} from the shop?`) && act(m.user_id, { method: 'DELETE' })}
                >
                  Remove
                </button>
              </span>
            )}
          </li>
        ))}
      </ul>
      <form id={`add-member-${handle}`} onSubmit={add.submit} noValidate aria-label="Add a member">
        <Field label="Name" name="name" required maxLength={120} autoComplete="off" />
        <Field label="Email" name="email" type="email" autoComplete="off" hint="Optional." />
        <label class="field">
          <span>Role</span>
          <select name="role" defaultValue="staff">
            <option value="staff">Staff: sells at the counter</option>
            <option value="admin">Admin: also keeps the settings and the books</option>
          </select>
        </label>
        <Problem problem={add.problem} />
        <button type="submit" disabled={add.busy}>
          Add the member
        </button>
      </form>
      <Problem problem={problem} />
    </div>
  );
}

/** How a member reads in a list: their name or email, else their sign-in key's did, shortened. */
function memberName(m: Member): string {
  if (m.name ?? m.email) return (m.name ?? m.email)!;
  return m.did ? `${m.did.slice(0, 16)}…${m.did.slice(-6)}` : 'A member';
}
