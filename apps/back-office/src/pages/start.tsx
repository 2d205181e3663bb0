import { useEffect, useState } from 'preact/hooks';
import { api, type Page } from '../api.js';
import { Field, Problem, useSubmit } from '../form.js';
import { session } from '../session.js';
import { Dashboard } from './dashboard.js';

/** `/`: what the product does, then opening a shop or signing in; signed in, the dashboard. */
export function Start() {
  const [newKey, setNewKey] = useState<string | null>(null);
  if (session.signedIn()) return <Dashboard newKey={newKey} onKeptKey={() => setNewKey(null)} />;
  return (
    <>
      <section class="hero">
        <h1>Get paid straight into your own wallet</h1>
        <p>
          Sell at the counter with a QR code, online with a Buy button, and by the request with HTTP 402. Payments go to your BSV wallet,
          never through us, and every sale lands in books your accountant can import.
        </p>
      </section>
      <div class="columns">
        <Onboarding onDone={setNewKey} />
        <SignIn />
      </div>
    </>
  );
}

type Jurisdiction = { code: string; name: string; rate: string; prices_include_tax: boolean };
type Onboarded = { organization: { handle: string }; api_key: { key: string } };

function Onboarding({ onDone }: { onDone: (key: string) => void }) {
  const [jurisdictions, setJurisdictions] = useState<Jurisdiction[]>([]);
  useEffect(() => {
    api<Page<Jurisdiction>>('/api/v1/tax/jurisdictions', { key: null })
      .then((page) => setJurisdictions(page.data))
      .catch(() => setJurisdictions([]));
  }, []);
  const { submit, busy, problem } = useSubmit(async (form) => {
    const wallet = text(form, 'wallet');
    const answer = await api<Onboarded>('/api/v1/onboard', {
      method: 'POST',
      key: null,
      body: {
        name: text(form, 'name'),
        ...(text(form, 'jurisdiction') ? { jurisdiction: text(form, 'jurisdiction') } : {}),
        prices_include_tax: form.get('prices_include_tax') === 'on',
        // An extended public key gives each payment a fresh address; a plain address is used as it is.
        ...(wallet ? (/^[xt]pub/.test(wallet) ? { wallet_xpub: wallet } : { receiving_address: wallet }) : {}),
        ...(text(form, 'paymail_alias') ? { paymail_alias: text(form, 'paymail_alias') } : {}),
        user: {
          ...(text(form, 'your_name') ? { name: text(form, 'your_name') } : {}),
          ...(text(form, 'email') ? { email: text(form, 'email') } : {}),
        },
      },
    });
    session.start(answer.api_key.key);
    onDone(answer.api_key.key);
  });
  return (
    <section class="card" aria-labelledby="open-shop">
      <h2 id="open-shop">Open your shop</h2>
      <form onSubmit={submit} noValidate>
        <Field label="Business name" name="name" required maxLength={200} autoComplete="organization" />
        <Field label="Your name" name="your_name" maxLength={120} autoComplete="name" />
        <Field label="Email" name="email" type="email" autoComplete="email" hint="Optional: for receipts of your own account." />
        <label class="field">
          <span>Where you sell (sales tax)</span>
          <select name="jurisdiction">
            <option value="">No sales tax</option>
            {jurisdictions.map((j) => (
              <option value={j.code} key={j.code}>
                {j.code}: {j.name}
              </option>
            ))}
          </select>
        </label>
        <label class="check">
          <input type="checkbox" name="prices_include_tax" />
          <span>My prices already include tax</span>
        </label>
        <Field
          label="Your wallet"
          name="wallet"
          hint="A receiving address, or an extended public key (xpub) so each payment gets a fresh address. Run pnpm wallet to make one."
          autoComplete="off"
          spellcheck={false}
        />
        <Field label="Paymail alias" name="paymail_alias" hint="Customers pay alias@this-site." autoComplete="off" spellcheck={false} />
        <Problem problem={problem} />
        <button type="submit" disabled={busy}>
          {busy ? 'Opening…' : 'Open my shop'}
        </button>
      </form>
    </section>
  );
}

function SignIn() {
  const { submit, busy, problem } = useSubmit(async (form) => {
    const key = text(form, 'api_key');
    // The key is checked before the session starts: a mistyped one is said here, not on the next page.
    await api('/api/v1/me', { key });
    session.start(key);
  });
  return (
    <section class="card" aria-labelledby="sign-in">
      <h2 id="sign-in">Sign in</h2>
      <form onSubmit={submit} noValidate>
        <Field
          label="API key"
          name="api_key"
          type="password"
          required
          autoComplete="off"
          hint="The key you were given when you opened your shop, or one made in Settings."
        />
        <Problem problem={problem} />
        <button type="submit" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
    </section>
  );
}

function text(form: FormData, name: string): string {
  return String(form.get(name) ?? '').trim();
}
