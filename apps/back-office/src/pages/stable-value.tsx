import { useEffect, useState } from 'preact/hooks';
import { api } from '../api.js';
import { Field, Problem, Refusal, useSubmit } from '../form.js';
import { formatDateTime, formatMoney, minorUnits } from '../format.js';
import { intentStatusText, settleRefusalText, tokenAmountText, type StablecoinIntent } from '../stablecoin.js';

/** How often a payment waiting for its transfer is read again. */
const POLL_MS = 2000;

const intentPath = (id: string) => `/api/v1/stablecoin/intents/${encodeURIComponent(id)}`;

/**
 * `/o/:handle/stable-value`: payments in the dollar stablecoin (decision 0036). What it does; a payment requested
 * for an amount (a keypad order of the shop, paid by its intent), shown with what the customer sends, where, the
 * address's QR and its status as it changes; and the stablecoin this instance takes, as the payment names it. The
 * API has no list of a shop's intents and no read of the stablecoin apart from an intent, so the page shows the
 * payment it requested, not a history.
 */
export function StableValuePage({ handle }: { handle: string }) {
  const [intent, setIntent] = useState<StablecoinIntent | null>(null);
  return (
    <>
      <h1>Stable value</h1>
      <section class="card" aria-labelledby="what">
        <h2 id="what">What it does for you</h2>
        <p>
          Customers pay in a dollar stablecoin on the same chain: a token worth one US dollar, moved with its issuer's approval. The price
          is in dollars, so nothing moves with an exchange rate. Each payment goes to a fresh address of your own wallet; this service never
          holds it.
        </p>
        <p class="muted">
          At the counter, an open order takes it with Pay in stablecoin; online, the Buy button offers it beside bitcoin. Here you can ask
          for an amount.
        </p>
      </section>
      <RequestPayment handle={handle} onRequested={setIntent} />
      {intent && <PaymentView intent={intent} onChange={setIntent} />}
      <StablecoinFacts intent={intent} />
    </>
  );
}

function RequestPayment({ handle, onRequested }: { handle: string; onRequested: (intent: StablecoinIntent) => void }) {
  const { submit, busy, problem } = useSubmit(async (form) => {
    const text = (name: string) => String(form.get(name) ?? '').trim();
    const amount = text('amount');
    if (!amount) throw new Refusal('Enter the amount to ask for, such as 12.50.');
    const intent = await api<StablecoinIntent>('/api/v1/stablecoin/intents', {
      method: 'POST',
      body: { org_handle: handle, amount_cents: minorUnits(amount), description: text('description') },
    });
    onRequested(intent);
    // The payment's own heading takes the focus: a screen reader hears what to show the customer.
    requestAnimationFrame(() => document.getElementById('payment')?.focus());
  });
  return (
    <section class="card" aria-labelledby="request">
      <h2 id="request">Request a payment</h2>
      <form onSubmit={submit} noValidate>
        <Field label="Amount in US dollars" name="amount" required inputMode="decimal" placeholder="12.50" autoComplete="off" />
        <Field
          label="What it is for"
          name="description"
          maxLength={200}
          autoComplete="off"
          hint="Your records and the order's line show it, e.g. Catering deposit."
        />
        <Problem problem={problem} />
        <button type="submit" disabled={busy}>
          Request the payment
        </button>
      </form>
    </section>
  );
}

/** The payment requested: what the customer sends and where, its QR, and its status as it changes. */
function PaymentView({ intent, onChange }: { intent: StablecoinIntent; onChange: (intent: StablecoinIntent) => void }) {
  const waiting = intent.status === 'requires_payment';
  useEffect(() => {
    if (!waiting) return;
    const timer = setTimeout(() => {
      api<StablecoinIntent>(intentPath(intent.id), { key: null }).then(onChange, () => onChange({ ...intent }));
    }, POLL_MS);
    return () => clearTimeout(timer);
  }, [intent]);
  const tokens = tokenAmountText(intent.payment);
  const paid = intent.transfers.find((transfer) => transfer.outcome === 'accepted');
  return (
    <section class="card payment" aria-labelledby="payment">
      <h2 id="payment" tabIndex={-1}>
        Pay in {intent.payment.symbol}
      </h2>
      <p class="amount">{tokens}</p>
      <p class="muted">
        {formatMoney(intent.amount_cents, intent.currency)} in {intent.payment.symbol}
        {intent.description && ` · ${intent.description}`} · order {intent.order_number}
      </p>
      <p class={`status ${intent.status}`} role="status" aria-live="polite">
        {intentStatusText(intent)}
      </p>
      {waiting && (
        <>
          <figure class="qr">
            <img
              src={`${intentPath(intent.id)}/qr?format=svg`}
              alt={`QR code of the address to send ${tokens} to`}
              width={240}
              height={240}
            />
            <figcaption>The customer scans the address with a stablecoin wallet</figcaption>
          </figure>
          <p>
            <strong>Send to this address</strong>
          </p>
          <p class="txid">
            <code>{intent.payment.address}</code>
          </p>
          <p class="muted">Pay by {formatDateTime(intent.expires_at)}</p>
          <PasteTxid intent={intent} onChange={onChange} />
        </>
      )}
      {paid && (
        <p class="txid">
          Paid by <code>{paid.txid}</code>
        </p>
      )}
    </section>
  );
}

/** "Paid already? Paste the transaction id": settle the payment with the transfer the customer's wallet sent. */
function PasteTxid({ intent, onChange }: { intent: StablecoinIntent; onChange: (intent: StablecoinIntent) => void }) {
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (event: Event) => {
    event.preventDefault();
    const txid = String(new FormData(event.currentTarget as HTMLFormElement).get('txid') ?? '')
      .trim()
      .toLowerCase();
    if (!/^[0-9a-f]{64}$/.test(txid)) return setProblem('A transaction id is 64 letters (a to f) and digits: paste it whole.');
    setProblem(null);
    setBusy(true);
    try {
      onChange(await api<StablecoinIntent>(`${intentPath(intent.id)}/settle`, { method: 'POST', body: { txid }, key: null }));
    } catch (error) {
      setProblem(settleRefusalText(error, intent));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form onSubmit={submit} noValidate>
      <Field
        label="Paid already? Paste the transaction id"
        name="txid"
        autoComplete="off"
        spellcheck={false}
        maxLength={64}
        hint="The id the customer's wallet showed when it sent the transfer."
      />
      <Problem problem={problem} />
      <button type="submit" disabled={busy}>
        Check payment
      </button>
    </form>
  );
}

/** The stablecoin this instance takes, as a payment request names it (the API has no other read of it). */
function StablecoinFacts({ intent }: { intent: StablecoinIntent | null }) {
  return (
    <section class="card" aria-labelledby="stablecoin">
      <h2 id="stablecoin">The stablecoin</h2>
      {!intent ? (
        <p class="muted">
          Its symbol, token id, decimals and cosigner show here with the first payment you request: each payment names them.
        </p>
      ) : (
        <dl class="facts">
          <dt>Symbol</dt>
          <dd>{intent.payment.symbol}</dd>
          <dt>Decimals</dt>
          <dd>
            {intent.payment.decimals}: {new Intl.NumberFormat('en-US').format(10 ** intent.payment.decimals)} units are one dollar
          </dd>
          <dt>Token id</dt>
          <dd class="txid">
            <code>{intent.payment.token_id}</code>
          </dd>
          <dt>Cosigner</dt>
          <dd class="txid">
            <code>{intent.payment.cosigner_public_key}</code>
          </dd>
        </dl>
      )}
    </section>
  );
}
