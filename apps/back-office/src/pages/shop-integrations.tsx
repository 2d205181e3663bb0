import { useEffect, useState } from 'preact/hooks';
import { api, type Page } from '../api.js';
import { describe, Field, Problem, useSubmit } from '../form.js';
import { formatDateTime } from '../format.js';
import { SecretOnce } from '../secret-once.js';

type ProviderAccount = { provider: string; secret_last4: string; webhook_url: string; previous_secret_valid_until: string | null };
type PaygateKey = { id: string; name: string; prefix: string; created_at: string; revoked_at: string | null };

const PROVIDERS = [
  { id: 'card-provider', name: 'Card payments (Stripe)' },
  { id: 'wallet-provider', name: 'Wallet payments' },
];

/**
 * A card or wallet provider's webhook signing secret, set (never shown again but its last 4 characters), and
 * the webhook URL to paste in the provider's dashboard: events reach this shop only from there.
 */
export function ProviderSecrets({ handle }: { handle: string }) {
  const [saved, setSaved] = useState<Record<string, ProviderAccount>>({});
  return (
    <div>
      <h3>Card and wallet providers</h3>
      <p>Paste the signing secret from the provider&rsquo;s dashboard, then give the provider the webhook URL shown.</p>
      {PROVIDERS.map((provider) => (
        <ProviderSecret
          key={provider.id}
          handle={handle}
          {...provider}
          saved={saved[provider.id]}
          onSaved={(a) => setSaved({ ...saved, [provider.id]: a })}
        />
      ))}
    </div>
  );
}

function ProviderSecret(props: {
  handle: string;
  id: string;
  name: string;
  saved?: ProviderAccount | undefined;
  onSaved: (a: ProviderAccount) => void;
}) {
  const { submit, busy, problem } = useSubmit(async (form) => {
    const account = await api<ProviderAccount>(`/api/v1/orgs/${props.handle}/payment-providers/${props.id}`, {
      method: 'PUT',
      body: { webhook_secret: String(form.get('webhook_secret') ?? '').trim() },
    });
    (document.getElementById(`secret-${props.id}`) as HTMLFormElement | null)?.reset();
    props.onSaved(account);
  });
  return (
    <form id={`secret-${props.id}`} onSubmit={submit} noValidate aria-label={props.name}>
      <Field label={`${props.name}: signing secret`} name="webhook_secret" type="password" required autoComplete="off" />
      <Problem problem={problem} />
      <button type="submit" class="secondary" disabled={busy}>
        Save the secret
      </button>
      {props.saved && (
        <p role="status" class="txid">
          Saved (ends {props.saved.secret_last4}). Webhook URL: <code>{props.saved.webhook_url}</code>
        </p>
      )}
    </form>
  );
}

/** The payment gate's keys, which a resource server sends with each check: made (shown once), listed, revoked. */
export function PaygateKeys({ handle }: { handle: string }) {
  const [keys, setKeys] = useState<PaygateKey[]>([]);
  const [issued, setIssued] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const load = () =>
    api<Page<PaygateKey>>(`/api/v1/orgs/${handle}/paygate-keys?limit=100`).then(
      (page) => setKeys(page.data),
      (error) => setProblem(describe(error)),
    );
  useEffect(() => void load(), [handle]);
  const create = useSubmit(async (form) => {
    const made = await api<{ key: string }>(`/api/v1/orgs/${handle}/paygate-keys`, {
      method: 'POST',
      body: { name: String(form.get('name') ?? '').trim() },
    });
    (document.getElementById(`paygate-key-${handle}`) as HTMLFormElement | null)?.reset();
    setIssued(made.key);
    await load();
  });
  const revoke = async (key: PaygateKey) => {
    if (!window.confirm(`Revoke the payment-gate key "${key.name}"? A server using it is refused at once.`)) return;
    try {
      await api(`/api/v1/orgs/${handle}/paygate-keys/${key.id}`, { method: 'DELETE' });
      await load();
    } catch (error) {
      setProblem(describe(error));
    }
  };
  return (
    <div>
      <h3>Payment-gate keys (HTTP 402)</h3>
      <p>Your API server sends one with each request it checks, to charge per request.</p>
      {issued && (
        <SecretOnce
          title="Your new payment-gate key"
          secret={issued}
          note="Shown only now. Your server sends it as: Authorization: Bearer <key>."
          onDone={() => setIssued(null)}
        />
      )}
      <form id={`paygate-key-${handle}`} class="inline" onSubmit={create.submit} noValidate aria-label="New payment-gate key">
        <Field label="Payment-gate key's name" name="name" required maxLength={100} placeholder="e.g. Weather API" autoComplete="off" />
        <button type="submit" disabled={create.busy}>
          Make a payment-gate key
        </button>
      </form>
      <Problem problem={create.problem ?? problem} />
      <ul class="entries">
        {keys.map((key) => (
          <li key={key.id}>
            {key.name} <code>{key.prefix}…</code> · {formatDateTime(key.created_at)}{' '}
            {key.revoked_at ? (
              <span class="muted">Revoked</span>
            ) : (
              <button type="button" class="danger" onClick={() => revoke(key)} aria-label={`Revoke ${key.name}`}>
                Revoke
              </button>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}
