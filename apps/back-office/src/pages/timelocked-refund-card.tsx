import { useState } from 'preact/hooks';
import { api } from '../api.js';
import { CopyButton } from '../copy-button.js';
import { describe, Problem } from '../form.js';
import { formatDateTime, shopZone } from '../format.js';
import { jointStatusText } from '../joint-transactions.js';
import { satoshisText } from '../satoshis.js';
import {
  refundDateText,
  refundNextText,
  refundParties,
  refundPath,
  refundStatusText,
  settlementRefusal,
  type TimelockedRefund,
} from '../timelocked-refunds.js';
import { JointPanel } from './joint-panel.js';

type Outcome = 'release' | 'cancel';
type Part = 'funding' | 'refund' | Outcome;

const SETTLED = ['released', 'cancelled', 'refunded'];

/**
 * One of the shop's time-locked refunds: what it is for, where it stands in words, what the lock holds, its
 * refund date on the shop's clock, both keys by party, its link for the buyer, and each of its joint
 * transactions (funding, refund, release, cancel) with who has signed and, while open, the command and the
 * paste-back box (joint-panel.tsx); the funding and the refund are held off the chain once signed, which their
 * part says. Reading it again moves it on (the refund built once the funding is signed, the funding broadcast
 * once the refund is). While active, the shop proposes the release or a cancel
 * (`POST /api/v1/timelocked-refunds/:id/settlement`).
 */
export function TimelockedRefundCard({ refund, onChange }: { refund: TimelockedRefund; onChange: (refund: TimelockedRefund) => void }) {
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const parties = refundParties(refund);
  const headingId = `timelocked-refund-${refund.id}`;
  const link = `${location.origin}${refundPath(refund.id)}`;
  const date = refundDateText(refund);
  const settled = SETTLED.includes(refund.status);
  const settlement = { released: refund.release, cancelled: refund.cancel, refunded: refund.refund }[refund.status as string];

  const titles: Record<Part, string> = {
    funding: "Funding: the buyer's coins into the lock",
    refund: `Refund to the buyer, after ${date}`,
    release: 'Release to you',
    cancel: 'Cancel: the money back to the buyer now',
  };
  const held: Partial<Record<Part, string>> = {
    funding: 'The service keeps it off the chain until you and the buyer have both signed the refund.',
    refund: settled
      ? `It can never be taken now: the ${refund.status === 'released' ? 'release' : 'cancel'} spent the lock first.`
      : `The buyer keeps it. The chain takes it only after ${date}; the service sends it then, unless a release or a cancel is on the chain first.`,
  };

  const act = async (call: () => Promise<TimelockedRefund>, refusal: (error: unknown) => string) => {
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
  const reload = () => act(() => api<TimelockedRefund>(refundPath(refund.id), { key: null }), describe);
  const propose = async (outcome: Outcome) => {
    const proposed = await act(
      () => api<TimelockedRefund>(`${refundPath(refund.id)}/settlement`, { method: 'POST', body: { outcome }, key: null }),
      settlementRefusal,
    );
    // The proposal's own heading takes the focus: what to sign is there.
    if (proposed) requestAnimationFrame(() => document.getElementById(`${outcome}-${refund.id}`)?.focus());
  };

  return (
    <li class="card contract">
      <h3 id={headingId} tabIndex={-1}>
        {refund.description || 'Time-locked refund'} <span class={`tag ${refund.status}`}>{refundStatusText(refund)}</span>
      </h3>
      <dl class="facts">
        <dt>The lock holds</dt>
        <dd>{satoshisText(refund.satoshis)}</dd>
        <dt>Refund after</dt>
        <dd>
          {formatDateTime(refund.refund_after)} <small class="zone">{shopZone()} time</small>
        </dd>
        <dt>Agreed</dt>
        <dd>{formatDateTime(refund.created_at)}</dd>
      </dl>
      <dl class="facts keys">
        <dt>Buyer's key</dt>
        <dd>
          <code>{refund.buyer_public_key}</code>
        </dd>
        <dt>Your key</dt>
        <dd>
          <code>{refund.seller_public_key}</code>
        </dd>
      </dl>
      <p class={`next${settled ? ' done' : ''}`}>{refundNextText(refund)}</p>
      {settled && settlement?.txid && (
        <p class="txid">
          Paid in transaction <code>{settlement.txid}</code>
        </p>
      )}
      {!settled && (
        <div class="share-link">
          <p>
            Its link, for the buyer (no sign-in needed):{' '}
            <a class="address" href={refundPath(refund.id)}>
              {link}
            </a>
          </p>
          <p class="actions">
            <CopyButton text={link} label="Copy the link for the buyer" copied="The link is copied: send it to the buyer." secondary />
            {refund.status === 'active' && refund.refund?.signed_transaction && (
              <CopyButton
                text={refund.refund.signed_transaction}
                label="Copy the signed refund"
                copied="The signed refund is copied: the buyer may keep it, and send it to the chain after its date."
                secondary
              />
            )}
          </p>
        </div>
      )}
      {(['funding', 'refund', 'release', 'cancel'] as const).map((part) => {
        const joint = refund[part];
        if (!joint) return null;
        const id = `${part}-${refund.id}`;
        return (
          <section key={part} class="contract-part" aria-labelledby={id}>
            <h4 id={id} tabIndex={-1}>
              {titles[part]} <span class={`tag ${joint.status}`}>{jointStatusText(joint)}</span>
            </h4>
            <JointPanel joint={joint} parties={parties} level={5} held={held[part]} onChange={() => void reload()} />
          </section>
        );
      })}
      {refund.status === 'active' && (!refund.release || !refund.cancel) && (
        <p class="actions">
          {!refund.release && (
            <button type="button" disabled={busy} onClick={() => void propose('release')}>
              Propose the release to you
            </button>
          )}
          {!refund.cancel && (
            <button type="button" class="secondary" disabled={busy} onClick={() => void propose('cancel')}>
              Propose a cancel: back to the buyer now
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
