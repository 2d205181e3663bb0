import { useState } from 'preact/hooks';
import { api } from '../api.js';
import { describe, Field, Problem, Refusal, useSubmit } from '../form.js';
import { formatDateTime, formatMoney, minorUnits } from '../format.js';

export type Refund = {
  id: string;
  status: 'pending' | 'paid' | 'cancelled' | 'expired';
  currency: string;
  amount_minor: number;
  tax_minor: number;
  tip_minor: number;
  satoshis: number;
  address: string;
  reason: string;
  payment_uri: string;
  expires_at: string;
  paid_at: string | null;
  txid: string | null;
};
type Line = { name: string; quantity: number };
type What = 'whole' | 'lines' | 'amount';

/**
 * A paid order's refunds (decision 0033): each with what it gives back, where to, and where it stands; a
 * pending one is paid by the merchant's own wallet from its `pay:` link (the service holds no keys), or
 * cancelled. A new one gives back the rest of the order, some of its lines or an amount, to the address
 * the customer's wallet gave when it paid or one the customer names; pos refuses more than the order took.
 */
export function OrderRefunds(props: {
  handle: string;
  orderNumber: string;
  currency: string;
  lines: Line[];
  refunds: Refund[];
  refundable: boolean;
  onChanged: () => void;
}) {
  const { handle, orderNumber, currency, lines, refunds, refundable, onChanged } = props;
  const money = (minor: number) => formatMoney(minor, currency);
  const [problem, setProblem] = useState<string | null>(null);
  const cancel = async (refund: Refund) => {
    if (!window.confirm(`Cancel the refund of ${money(refund.amount_minor)}? It will not be paid.`)) return;
    try {
      await api(`/api/pos/refunds/${refund.id}/cancel`, { method: 'POST', body: { org_handle: handle } });
      onChanged();
    } catch (error) {
      setProblem(describe(error));
    }
  };
  return (
    <section aria-label={`Refunds of order ${orderNumber}`}>
      {refunds.length > 0 && <h3>Refunds</h3>}
      <ul class="refunds">
        {refunds.map((refund) => (
          <li key={refund.id}>
            <p>
              <strong>{money(refund.amount_minor)}</strong> (tax {money(refund.tax_minor)}
              {refund.tip_minor ? `, tip ${money(refund.tip_minor)}` : ''}), {refund.satoshis.toLocaleString()} satoshis to{' '}
              <code class="address">{refund.address}</code>: <span class="tag">{refund.status}</span>
              {refund.reason && ` · ${refund.reason}`}
            </p>
            {refund.status === 'pending' && (
              <>
                <p>
                  Pay it from your wallet before {formatDateTime(refund.expires_at)}:{' '}
                  <a href={refund.payment_uri}>open the refund in your wallet</a>, or run{' '}
                  <code class="address">pnpm wallet pay '{refund.payment_uri}'</code>.
                </p>
                <p class="actions">
                  <button type="button" class="secondary" onClick={() => cancel(refund)}>
                    Cancel this refund
                  </button>
                </p>
              </>
            )}
            {refund.status === 'paid' && refund.txid && (
              <p class="txid">
                Paid {refund.paid_at ? formatDateTime(refund.paid_at) : ''}: <code>{refund.txid}</code>
              </p>
            )}
          </li>
        ))}
      </ul>
      <Problem problem={problem} />
      {refundable && <NewRefund handle={handle} orderNumber={orderNumber} lines={lines} onMade={onChanged} />}
    </section>
  );
}

function NewRefund({ handle, orderNumber, lines, onMade }: { handle: string; orderNumber: string; lines: Line[]; onMade: () => void }) {
  const [what, setWhat] = useState<What>('lines');
  const { submit, busy, problem } = useSubmit(async (form) => {
    const text = (name: string) => String(form.get(name) ?? '').trim();
    const chosen = lines.flatMap((line, index) => {
      const units = text(`line-${index}`);
      if (!units || units === '0') return [];
      if (!/^\d{1,6}$/.test(units)) throw new Refusal(`Units of ${line.name} is a whole number.`);
      return [{ line: index, quantity: Number(units) }];
    });
    if (what === 'lines' && chosen.length === 0) throw new Refusal('Say how many units of which line to give back.');
    await api(`/api/pos/orders/${orderNumber}/refunds`, {
      method: 'POST',
      body: {
        org_handle: handle,
        ...(what === 'whole' ? { whole: true } : what === 'lines' ? { lines: chosen } : { amount_minor: minorUnits(text('amount')) }),
        ...(text('refund_to') ? { refund_to: text('refund_to') } : {}),
        ...(text('reason') ? { reason: text('reason') } : {}),
      },
    });
    (document.getElementById(`refund-${orderNumber}`) as HTMLFormElement | null)?.reset();
    onMade();
  });
  return (
    <form id={`refund-${orderNumber}`} onSubmit={submit} noValidate aria-label={`Refund order ${orderNumber}`}>
      <h3>Give money back</h3>
      <fieldset class="choices">
        <legend>What to give back</legend>
        {(
          [
            ['lines', 'Some of its lines'],
            ['whole', 'All it took that is not refunded yet'],
            ['amount', 'An amount'],
          ] as const
        ).map(([value, label]) => (
          <label class="check" key={value}>
            <input type="radio" name="what" value={value} checked={what === value} onChange={() => setWhat(value)} />
            <span>{label}</span>
          </label>
        ))}
      </fieldset>
      {what === 'lines' &&
        lines.map((line, index) => (
          <Field
            key={index}
            label={`Units of ${line.name} (of ${line.quantity})`}
            name={`line-${index}`}
            inputMode="numeric"
            autoComplete="off"
            placeholder="0"
          />
        ))}
      {what === 'amount' && (
        <Field
          label="Amount"
          name="amount"
          required
          inputMode="decimal"
          placeholder="2.50"
          autoComplete="off"
          hint="Tax and tip included."
        />
      )}
      <Field
        label="The customer's address"
        name="refund_to"
        maxLength={100}
        autoComplete="off"
        spellcheck={false}
        hint="Empty: the address their wallet gave when it paid."
      />
      <Field label="Reason" name="reason" maxLength={500} autoComplete="off" hint="For your records." />
      <Problem problem={problem} />
      <button type="submit" disabled={busy}>
        Make the refund
      </button>
    </form>
  );
}
