import { useEffect, useState } from 'preact/hooks';
import { api, ApiError, type Page } from '../api.js';
import { describe, Field, Problem, Refusal, useSubmit } from '../form.js';
import { formatDateTime } from '../format.js';

type Grant = { kind: 'calls'; calls: number } | { kind: 'window'; seconds: number };
type Resource = { id: string; method: string; path: string; price_satoshis: number; grant: Grant; description: string; created_at: string };
type Payment = {
  id: string;
  method: string;
  path: string;
  txid: string;
  satoshis: number;
  protocol: string;
  calls: number | null;
  calls_used: number;
  expires_at: string;
  created_at: string;
};

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', '*'];
const satoshis = (n: number) => `${new Intl.NumberFormat().format(n)} satoshi${n === 1 ? '' : 's'}`;

/** What one payment buys, in words. */
function grantOf(grant: Grant): string {
  if (grant.kind === 'calls') return grant.calls === 1 ? 'one call' : `${new Intl.NumberFormat().format(grant.calls)} calls`;
  const hours = grant.seconds / 3600;
  return Number.isInteger(hours) ? `${hours} hour${hours === 1 ? '' : 's'} of access` : `${grant.seconds} seconds of access`;
}

/**
 * `/o/:handle/paygate-402`: the organisation's paid API (HTTP 402). Its priced URLs (what one payment
 * buys), priced and removed here by an admin, and the payments the gate verified. The resource server asks
 * the gate with a payment-gate key (made in Settings); until there is one, the page says so.
 */
export function PaidApiPage({ handle }: { handle: string }) {
  const [resources, setResources] = useState<Resource[] | null>(null);
  const [payments, setPayments] = useState<Payment[]>([]);
  const [problem, setProblem] = useState<string | null>(null);
  const [noKey, setNoKey] = useState(false);
  const base = `/api/v1/orgs/${handle}/402`;
  const load = () =>
    Promise.all([api<Page<Resource>>(`${base}/resources?limit=100`), api<Page<Payment>>(`${base}/payments?limit=50`)]).then(
      ([priced, paid]) => (setResources(priced.data), setPayments(paid.data)),
      (error) => (error instanceof ApiError && error.code === 'failed_precondition' ? setNoKey(true) : setProblem(describe(error))),
    );
  useEffect(() => void load(), [handle]);
  const remove = async (resource: Resource) => {
    if (!window.confirm(`Remove the price on ${resource.method} ${resource.path}? Credentials bought for it stop working.`)) return;
    try {
      await api(`${base}/resources/${resource.id}`, { method: 'DELETE' });
      await load();
    } catch (error) {
      setProblem(describe(error));
    }
  };
  return (
    <>
      <h1>Payment gate (HTTP 402)</h1>
      <p>
        Charge per request: a URL of your API with a price answers 402 with a payment request, the caller&rsquo;s wallet pays it, and the
        gate lets the paid calls through.
      </p>
      {noKey ? (
        <section class="card" aria-labelledby="first-key">
          <h2 id="first-key">First, a payment-gate key</h2>
          <p>
            Your API server asks the gate with a payment-gate key. Make one in <a href="/settings">Settings</a>, then come back to price
            your URLs.
          </p>
        </section>
      ) : (
        <>
          <PriceUrl base={base} onPriced={load} />
          <section aria-labelledby="priced">
            <h2 id="priced">Priced URLs</h2>
            <Problem problem={problem} />
            {resources?.length === 0 && <p>No priced URLs yet.</p>}
            <ul class="entries">
              {resources?.map((resource) => (
                <li class="card" key={resource.id}>
                  <h3>
                    <code>
                      {resource.method} {resource.path}
                    </code>
                  </h3>
                  <p>
                    {satoshis(resource.price_satoshis)} for {grantOf(resource.grant)}
                    {resource.description && ` · ${resource.description}`}
                  </p>
                  <p class="actions">
                    <button type="button" class="secondary" onClick={() => remove(resource)}>
                      Remove {resource.method} {resource.path}
                    </button>
                  </p>
                </li>
              ))}
            </ul>
          </section>
          <Payments payments={payments} />
        </>
      )}
    </>
  );
}

function PriceUrl({ base, onPriced }: { base: string; onPriced: () => Promise<void> }) {
  const [kind, setKind] = useState<Grant['kind']>('calls');
  const { submit, busy, problem } = useSubmit(async (form) => {
    const text = (name: string) => String(form.get(name) ?? '').trim();
    const whole = (name: string, label: string) => {
      if (!/^\d+$/.test(text(name))) throw new Refusal(`${label} is a whole number.`);
      return Number(text(name));
    };
    const price = whole('price', 'The price');
    const grant = kind === 'calls' ? { kind, calls: whole('calls', 'Calls') } : { kind, seconds: whole('hours', 'Hours') * 3600 };
    await api(`${base}/resources`, {
      method: 'POST',
      body: { method: text('method'), path: text('path'), price_satoshis: price, grant, description: text('description') },
    });
    (document.getElementById('price-url') as HTMLFormElement | null)?.reset();
    await onPriced();
  });
  return (
    <section class="card" aria-labelledby="price-url-title">
      <h2 id="price-url-title">Price a URL</h2>
      <form id="price-url" onSubmit={submit} noValidate>
        <label class="field">
          <span>Method</span>
          <select name="method" defaultValue="GET">
            {METHODS.map((method) => (
              <option key={method} value={method}>
                {method === '*' ? 'Any method' : method}
              </option>
            ))}
          </select>
        </label>
        <Field
          label="Path"
          name="path"
          required
          maxLength={512}
          placeholder="/weather/*"
          autoComplete="off"
          spellcheck={false}
          hint="An exact path, or a prefix ending in /* for everything below it."
        />
        <Field label="Price in satoshis" name="price" required inputMode="numeric" placeholder="50" autoComplete="off" />
        <label class="field">
          <span>One payment buys</span>
          <select name="kind" value={kind} onChange={(event) => setKind((event.currentTarget as HTMLSelectElement).value as Grant['kind'])}>
            <option value="calls">A number of calls</option>
            <option value="window">Access for some hours</option>
          </select>
        </label>
        {kind === 'calls' ? (
          <Field label="Calls" name="calls" required inputMode="numeric" defaultValue="1" autoComplete="off" />
        ) : (
          <Field label="Hours" name="hours" required inputMode="numeric" defaultValue="1" autoComplete="off" />
        )}
        <Field label="Description" name="description" maxLength={500} autoComplete="off" hint="Shown to the payer with the price." />
        <Problem problem={problem} />
        <button type="submit" disabled={busy}>
          Put the price on
        </button>
      </form>
    </section>
  );
}

function Payments({ payments }: { payments: Payment[] }) {
  return (
    <section aria-labelledby="gate-payments">
      <h2 id="gate-payments">Payments</h2>
      {payments.length === 0 ? (
        <p>No payments yet.</p>
      ) : (
        <table class="lines">
          <caption class="visually-hidden">Payments through the gate, newest first</caption>
          <thead>
            <tr>
              <th scope="col">Paid for</th>
              <th scope="col">Amount</th>
              <th scope="col">Used</th>
            </tr>
          </thead>
          <tbody>
            {payments.map((payment) => (
              <tr key={payment.id}>
                <td>
                  <code>
                    {payment.method} {payment.path}
                  </code>
                  <br />
                  <small>
                    {formatDateTime(payment.created_at)} ·{' '}
                    <span class="txid">
                      <code>{payment.txid}</code>
                    </span>
                  </small>
                </td>
                <td>{satoshis(payment.satoshis)}</td>
                <td>
                  {payment.calls === null
                    ? `until ${formatDateTime(payment.expires_at)}`
                    : `${payment.calls_used} of ${payment.calls} call${payment.calls === 1 ? '' : 's'}`}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
