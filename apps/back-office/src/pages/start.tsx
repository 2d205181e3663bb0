import { useEffect, useState } from 'preact/hooks';
import { api } from '../api.js';
import { Field, Problem, Refusal, useSubmit } from '../form.js';
import { JurisdictionSelect } from '../jurisdiction-select.js';
import { TimeZoneSelect } from '../time-zone-select.js';
import { keepKey, keptKey } from '../key-store.js';
import { session } from '../session.js';
import { keySession, signInWithKey } from '../sign-in.js';
import { fromWif, newSignInKey, type SignInKey } from '../sign-in-key.js';
import { Dashboard } from './dashboard.js';

/**
 * `/`: what the product does, then opening a shop or signing in, with no password: this browser makes and
 * keeps a sign-in key (key-store.ts) and signs the API's challenge with it. Signed in, the dashboard.
 */
export function Start() {
  // A key made for a new shop, to back up now (shown once on the dashboard).
  const [backup, setBackup] = useState<SignInKey | null>(null);
  const [kept, setKept] = useState<SignInKey | null | undefined>(undefined);
  useEffect(() => {
    keptKey().then(setKept, () => setKept(null));
  }, [session.signedIn()]);
  if (session.signedIn()) return <Dashboard backup={backup} onBackedUp={() => setBackup(null)} />;
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
        <Onboarding kept={kept ?? null} onNewKey={setBackup} />
        <SignIn kept={kept ?? null} />
      </div>
    </>
  );
}

/** A new shop: signed in first with this browser's key (a new one when it keeps none), then onboarded as that user. */
function Onboarding({ kept, onNewKey }: { kept: SignInKey | null; onNewKey: (key: SignInKey) => void }) {
  const { submit, busy, problem } = useSubmit(async (form) => {
    const wallet = text(form, 'wallet');
    const fields = {
      name: text(form, 'name'),
      ...(text(form, 'jurisdiction') ? { jurisdiction: text(form, 'jurisdiction') } : {}),
      prices_include_tax: form.get('prices_include_tax') === 'on',
      // An extended public key gives each payment a fresh address; a plain address is used as it is.
      ...(wallet ? (/^[xt]pub/.test(wallet) ? { wallet_xpub: wallet } : { receiving_address: wallet }) : {}),
      ...(text(form, 'paymail_alias') ? { paymail_alias: text(form, 'paymail_alias') } : {}),
      time_zone: text(form, 'time_zone'),
    };
    const key = kept ?? newSignInKey();
    const signedIn = await keySession(key);
    try {
      await api('/api/v1/onboard', { method: 'POST', key: signedIn.key, body: fields });
    } catch (error) {
      // The shop was refused (a handle or alias taken): the form stays, to change and send again.
      await api(`/api/v1/me/api-keys/${signedIn.id}`, { method: 'DELETE', key: signedIn.key }).catch(() => undefined);
      throw error;
    }
    if (!kept) {
      await keepKey(key);
      onNewKey(key);
    }
    // Last: the dashboard it opens reads the shop just made.
    session.start(signedIn.key, { signedIn: true });
  });
  return (
    <section class="card" aria-labelledby="open-shop">
      <h2 id="open-shop">Open your shop</h2>
      <form onSubmit={submit} noValidate>
        <Field label="Business name" name="name" required maxLength={200} autoComplete="organization" />
        <JurisdictionSelect label="Where you sell (sales tax)" />
        <TimeZoneSelect />
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
        <p class="hint">No password: this browser makes a sign-in key and keeps it. You can download a backup next.</p>
        <Problem problem={problem} />
        <button type="submit" disabled={busy}>
          {busy ? 'Opening…' : 'Open my shop'}
        </button>
      </form>
    </section>
  );
}

/** Signing in: with the key this browser keeps, with a key's backup, or with an API key. */
function SignIn({ kept }: { kept: SignInKey | null }) {
  const withKept = useSubmit(async () => signInWithKey(kept!));
  const withBackup = useSubmit(async (form) => {
    const key = fromWif(text(form, 'backup'));
    if (!key) throw new Refusal('That is not a sign-in key backup: paste the WIF from your backup file (it starts with K, L or 5).');
    await signInWithKey(key);
    await keepKey(key);
  });
  const withApiKey = useSubmit(async (form) => {
    const key = text(form, 'api_key');
    // The key is checked before the session starts: a mistyped one is said here, not on the next page.
    await api('/api/v1/me', { key });
    session.start(key, { signedIn: false });
  });
  return (
    <section class="card" aria-labelledby="sign-in">
      <h2 id="sign-in">Sign in</h2>
      {kept && (
        <form onSubmit={withKept.submit} class="stack">
          <p>This browser keeps your sign-in key.</p>
          <Problem problem={withKept.problem} />
          <button type="submit" disabled={withKept.busy}>
            {withKept.busy ? 'Signing in…' : "Sign in with this browser's key"}
          </button>
        </form>
      )}
      <details open={!kept}>
        <summary>Restore a key from its backup</summary>
        <form onSubmit={withBackup.submit} noValidate>
          <Field label="Backup key (WIF)" name="backup" type="password" required autoComplete="off" spellcheck={false} />
          <Problem problem={withBackup.problem} />
          <button type="submit" disabled={withBackup.busy}>
            {withBackup.busy ? 'Signing in…' : 'Sign in with the backup'}
          </button>
        </form>
      </details>
      <details>
        <summary>Use an API key instead</summary>
        <form onSubmit={withApiKey.submit} noValidate>
          <Field
            label="API key"
            name="api_key"
            type="password"
            required
            autoComplete="off"
            hint="One made in Settings, or given at onboarding through the API."
          />
          <Problem problem={withApiKey.problem} />
          <button type="submit" disabled={withApiKey.busy}>
            {withApiKey.busy ? 'Signing in…' : 'Sign in with the API key'}
          </button>
        </form>
      </details>
    </section>
  );
}

function text(form: FormData, name: string): string {
  return String(form.get(name) ?? '').trim();
}
