import { useEffect, useState } from 'preact/hooks';
import { api, type Page } from '../api.js';
import { describe, Field, Problem, useSubmit } from '../form.js';
import { formatDateTime } from '../format.js';
import { KeyBackup } from '../key-backup.js';
import { forgetKey, keptKey } from '../key-store.js';
import { SecretOnce } from '../secret-once.js';
import { ShopSettings } from './shop-settings.js';
import type { SignInKey } from '../sign-in-key.js';
import { session } from '../session.js';
import { SignInFirst } from './sign-in-first.js';

type ApiKey = { id: string; name: string; prefix: string; created_at: string; revoked_at: string | null };
type Me = { api_key: { id: string } | null };

/** `/settings`: each shop's wallet, paymail, tax, Buy button and members; this browser's sign-in key (its backup, or forgetting it) and the user's API keys (made, shown once, listed, revoked). */
export function Settings() {
  if (!session.signedIn()) return <SignInFirst />;
  return (
    <>
      <h1>Settings</h1>
      <Shops />
      <BrowserKey />
      <ApiKeys />
    </>
  );
}

/** The settings of each organisation the user keeps (admin or owner). */
function Shops() {
  const [orgs, setOrgs] = useState<{ handle: string; role: 'owner' | 'admin' | 'staff' }[]>([]);
  useEffect(() => {
    api<{ organizations: { handle: string; role: 'owner' | 'admin' | 'staff' }[] }>('/api/v1/me').then(
      (me) => setOrgs(me.organizations),
      () => setOrgs([]),
    );
  }, []);
  return (
    <>
      {orgs.map((org) => (
        <ShopSettings key={org.handle} handle={org.handle} role={org.role} />
      ))}
    </>
  );
}

function BrowserKey() {
  const [kept, setKept] = useState<SignInKey | null | undefined>(undefined);
  useEffect(() => {
    keptKey().then(setKept, () => setKept(null));
  }, []);
  const forget = async () => {
    if (!window.confirm('Forget the sign-in key on this browser? You will need its backup to sign in here again.')) return;
    await forgetKey();
    setKept(null);
  };
  if (kept === undefined) return null;
  return (
    <section class="card" aria-labelledby="browser-key">
      <h2 id="browser-key">Sign-in key</h2>
      {kept ? (
        <>
          <p>
            This browser keeps the key you sign in with: <code class="did">{kept.did}</code>
          </p>
          <KeyBackup signInKey={kept} name="backup" />
          <p>
            <button type="button" class="danger" onClick={forget}>
              Forget it on this browser
            </button>
          </p>
        </>
      ) : (
        <p>This browser keeps no sign-in key. Sign out, then restore one from its backup on the start page.</p>
      )}
    </section>
  );
}

function ApiKeys() {
  const [keys, setKeys] = useState<ApiKey[] | null>(null);
  const [current, setCurrent] = useState<string | null>(null);
  const [issued, setIssued] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const load = () =>
    Promise.all([api<Page<ApiKey>>('/api/v1/me/api-keys?limit=100'), api<Me>('/api/v1/me')]).then(
      ([page, me]) => {
        setKeys(page.data);
        setCurrent(me.api_key?.id ?? null);
      },
      (error) => setProblem(describe(error)),
    );
  useEffect(() => void load(), []);

  const create = useSubmit(async (form) => {
    const made = await api<{ key: string }>('/api/v1/me/api-keys', {
      method: 'POST',
      body: { name: String(form.get('name') ?? '').trim() },
    });
    (document.getElementById('new-key-form') as HTMLFormElement | null)?.reset();
    setIssued(made.key);
    await load();
  });
  const revoke = async (key: ApiKey) => {
    if (!window.confirm(`Revoke the key "${key.name}" (${key.prefix}…)? Anything using it stops working at once.`)) return;
    try {
      await api(`/api/v1/me/api-keys/${key.id}`, { method: 'DELETE' });
      await load();
    } catch (error) {
      setProblem(describe(error));
    }
  };

  return (
    <section class="card" aria-labelledby="api-keys">
      <h2 id="api-keys">API keys</h2>
      <p>
        Each key acts as you: for the counter on another device, a script, or your accountant&rsquo;s import. Revoke one you no longer use.
      </p>
      {issued && (
        <SecretOnce
          title="Your new API key"
          secret={issued}
          note="Shown only now. Use it as: Authorization: Bearer <key>."
          onDone={() => setIssued(null)}
        />
      )}
      <form id="new-key-form" class="inline" onSubmit={create.submit} noValidate>
        <Field label="New key's name" name="name" required maxLength={100} placeholder="e.g. Counter tablet" autoComplete="off" />
        <button type="submit" disabled={create.busy}>
          {create.busy ? 'Making…' : 'Make a key'}
        </button>
      </form>
      <Problem problem={create.problem ?? problem} />
      <table class="list">
        <caption class="visually-hidden">Your API keys</caption>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Starts with</th>
            <th scope="col">Made</th>
            <th scope="col">
              <span class="visually-hidden">Action</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {keys?.map((key) => (
            <tr key={key.id}>
              <td>
                {key.name}
                {key.id === current && <span class="tag">this session</span>}
              </td>
              <td>
                <code>{key.prefix}…</code>
              </td>
              <td>{formatDateTime(key.created_at)}</td>
              <td>
                {key.revoked_at ? (
                  <span class="muted">Revoked</span>
                ) : (
                  <button type="button" class="danger" onClick={() => revoke(key)} aria-label={`Revoke ${key.name}`}>
                    Revoke
                  </button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
