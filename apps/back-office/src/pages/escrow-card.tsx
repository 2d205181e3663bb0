import { useState } from 'preact/hooks';
import { api } from '../api.js';
import { CopyButton } from '../copy-button.js';
import { describe, Problem } from '../form.js';
import { formatDateTime, formatMoney } from '../format.js';
import { settleRefusal } from '../escrow-refusals.js';
import {
  ESCROW_NEXT_TEXT,
  ESCROW_STATUS_TEXT,
  escrowParties,
  escrowPath,
  orderPaymentText,
  type Escrow,
  type OrderPayment,
} from '../escrows.js';
import { jointStatusText } from '../joint-transactions.js';
import { satoshisText } from '../satoshis.js';
import { JointPanel } from './joint-panel.js';

type Outcome = 'release' | 'refund';

/** How the order's payment stands out: held paid is done, a refusal is the next thing to act on. */
const ORDER_PAYMENT_CLASS: Record<OrderPayment, string | undefined> = { paid: 'next done', refused: 'next', pending: undefined };

/** Each of an escrow's joint transactions, with the heading its part of the card has. */
const PARTS: { part: 'funding' | Outcome; title: string }[] = [
  { part: 'funding', title: "Funding: the buyer's coins into the lock" },
  { part: 'release', title: 'Release to you' },
  { part: 'refund', title: 'Refund to the buyer' },
];

/**
 * One of the shop's escrows: what it is for, where it stands in words, what the lock holds, the pos order it
 * pays (its number, its total in money, and whether pos holds it paid by the escrow), the three keys by party,
 * its link for the buyer and the arbiter, and each of its joint transactions (funding, release, refund) with who
 * has signed and, while open, the command and the paste-back box (joint-panel.tsx). Once funded, the shop
 * proposes the release or a refund (`POST /api/v1/escrows/:id/settlement`); only a refund once pos refused the
 * escrow as its order's payment.
 */
export function EscrowCard({ escrow, onChange }: { escrow: Escrow; onChange: (escrow: Escrow) => void }) {
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const parties = escrowParties(escrow);
  const headingId = `escrow-${escrow.id}`;
  const link = `${location.origin}${escrowPath(escrow.id)}`;
  const open = escrow.status === 'funded' || escrow.status === 'settling';
  const settled = escrow.status === 'released' ? escrow.release : escrow.status === 'refunded' ? escrow.refund : undefined;
  const orderPayment = orderPaymentText(escrow);
  // pos refused it as the order's payment: the refund is what is left to do, and the card says so instead.
  const refused = escrow.order_payment === 'refused' && !settled;

  const act = async (call: () => Promise<Escrow>, refusal: (error: unknown) => string) => {
    setBusy(true);
    setProblem(null);
    try {
      onChange(await call());
      return true;
    } catch (error) {
      setProblem(refusal(error));
      return false;
    } finally {
      setBusy(false);
    }
  };
  const reload = () => act(() => api<Escrow>(escrowPath(escrow.id), { key: null }), describe);
  const propose = async (outcome: Outcome) => {
    const proposed = await act(
      () => api<Escrow>(`${escrowPath(escrow.id)}/settlement`, { method: 'POST', body: { outcome }, key: null }),
      settleRefusal,
    );
    // The proposal's own heading takes the focus: what to sign is there.
    if (proposed) requestAnimationFrame(() => document.getElementById(`${outcome}-${escrow.id}`)?.focus());
  };

  return (
    <li class="card escrow">
      <h3 id={headingId} tabIndex={-1}>
        {escrow.description || 'Escrow'} <span class={`tag ${escrow.status}`}>{ESCROW_STATUS_TEXT[escrow.status]}</span>
      </h3>
      <dl class="facts">
        <dt>The lock holds</dt>
        <dd>{satoshisText(escrow.satoshis)}</dd>
        <dt>Agreed</dt>
        <dd>{formatDateTime(escrow.created_at)}</dd>
        {escrow.order_number && (
          <>
            <dt>Pays order</dt>
            <dd>{escrow.order_number}</dd>
            <dt>Order total</dt>
            <dd>{formatMoney(escrow.order_total_minor ?? 0, escrow.currency ?? 'USD')}</dd>
          </>
        )}
      </dl>
      {orderPayment && <p class={ORDER_PAYMENT_CLASS[escrow.order_payment ?? 'pending']}>{orderPayment}</p>}
      <dl class="facts keys">
        <dt>Buyer's key</dt>
        <dd>
          <code>{escrow.buyer_public_key}</code>
        </dd>
        <dt>Your key</dt>
        <dd>
          <code>{escrow.seller_public_key}</code>
        </dd>
        <dt>Arbiter's key</dt>
        <dd>
          <code>{escrow.arbiter_public_key}</code>
        </dd>
      </dl>
      {!refused && <p class={`next${settled ? ' done' : ''}`}>{ESCROW_NEXT_TEXT[escrow.status]}</p>}
      {settled?.txid && (
        <p class="txid">
          {escrow.status === 'released' ? 'Released' : 'Refunded'} in transaction <code>{settled.txid}</code>
        </p>
      )}
      <div class="share-link">
        <p>
          The escrow's link, for the buyer and the arbiter (no sign-in needed):{' '}
          <a class="address" href={escrowPath(escrow.id)}>
            {link}
          </a>
        </p>
        <p class="actions">
          <CopyButton
            text={link}
            label="Copy the escrow's link"
            copied="The link is copied: send it to the buyer and the arbiter."
            secondary
          />
        </p>
      </div>
      {PARTS.map(({ part, title }) => {
        const joint = escrow[part];
        if (!joint) return null;
        const id = `${part}-${escrow.id}`;
        return (
          <section key={part} class="escrow-part" aria-labelledby={id}>
            <h4 id={id} tabIndex={-1}>
              {title} <span class={`tag ${joint.status}`}>{jointStatusText(joint)}</span>
            </h4>
            <JointPanel joint={joint} parties={parties} level={5} onChange={() => void reload()} />
          </section>
        );
      })}
      {open && (!escrow.release || !escrow.refund) && (
        <p class="actions">
          {!escrow.release && !refused && (
            <button type="button" disabled={busy} onClick={() => void propose('release')}>
              Propose the release to you
            </button>
          )}
          {!escrow.refund && (
            <button type="button" class="secondary" disabled={busy} onClick={() => void propose('refund')}>
              Propose a refund to the buyer
            </button>
          )}
        </p>
      )}
      <Problem problem={problem} />
      <p>
        <button type="button" class="secondary" disabled={busy} onClick={() => void reload()} aria-describedby={headingId}>
          Read again
        </button>
      </p>
    </li>
  );
}
