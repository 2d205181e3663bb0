import { useEffect, useState } from 'preact/hooks';
import { api } from '../api.js';
import { describe, Problem } from '../form.js';
import type { TimelockedRefund } from '../timelocked-refunds.js';
import type { ShopWallet } from '../wallet-addresses.js';
import { TimelockedRefundCard } from './timelocked-refund-card.js';
import { TimelockedRefundForm } from './timelocked-refund-form.js';

/**
 * `/o/:handle/timelocked-refund`: time-locked refunds (decision 0039). What one is, in plain words; a form to
 * agree one with a buyer (timelocked-refund-form.tsx); and the shop's (`GET /api/v1/orgs/:handle/timelocked-refunds`,
 * staff), each with where it stands, its date, its link for the buyer, its funding, refund, release and cancel
 * and who has signed them, and the signing of each in the parties' own wallets (timelocked-refund-card.tsx).
 * The service never holds a key or the money.
 */
export function TimelockedRefundPage({ handle }: { handle: string }) {
  const [wallet, setWallet] = useState<ShopWallet | null>(null);
  const [refunds, setRefunds] = useState<TimelockedRefund[] | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  useEffect(() => {
    api<ShopWallet>(`/api/v1/organizations/${encodeURIComponent(handle)}`).then(setWallet, (error) => setProblem(describe(error)));
    api<{ data: TimelockedRefund[] }>(`/api/v1/orgs/${encodeURIComponent(handle)}/timelocked-refunds`).then(
      (answer) => setRefunds(answer.data),
      (error) => setProblem(describe(error)),
    );
  }, [handle]);
  const replace = (refund: TimelockedRefund) =>
    setRefunds((list) => (list ?? []).map((known) => (known.id === refund.id ? refund : known)));
  const agreed = (refund: TimelockedRefund) => {
    setRefunds((list) => [refund, ...(list ?? [])]);
    // The new one's heading takes the focus: a screen reader hears it, and a phone scrolls to it.
    requestAnimationFrame(() => document.getElementById(`timelocked-refund-${refund.id}`)?.focus());
  };
  const shopKey = wallet?.identity_public_key ?? null;
  return (
    <>
      <h1>Time-locked refund</h1>
      <RefundExplained />
      <Problem problem={problem} />
      {wallet && !shopKey && (
        <p class="next">
          Your key in the lock is your wallet's identity key, and the shop has none registered yet: add your wallet's public key in{' '}
          <a href="/settings">Settings</a> first.
        </p>
      )}
      <TimelockedRefundForm handle={handle} shopKey={shopKey} onAgreed={agreed} />
      <section aria-labelledby="your-refunds">
        <h2 id="your-refunds">Your time-locked refunds</h2>
        {refunds === null && !problem && <p aria-busy="true">Loading…</p>}
        {refunds?.length === 0 && <p>None yet. Agree one above.</p>}
        <ul class="entries">
          {refunds?.map((refund) => (
            <TimelockedRefundCard key={refund.id} refund={refund} onChange={replace} />
          ))}
        </ul>
      </section>
    </>
  );
}

/** What a time-locked refund is, in plain words. */
function RefundExplained() {
  return (
    <section class="card" aria-labelledby="what">
      <h2 id="what">What it does for you</h2>
      <p>
        A buyer can pay you ahead, a deposit or an order made to measure, knowing they get the money back if the deal never happens. The
        buyer's money goes into a lock that <strong>you</strong> and <strong>the buyer</strong> control together: it moves only when you
        both sign.
      </p>
      <ul>
        <li>
          Before the money moves, you both sign a refund that pays it back to the buyer. The buyer keeps it, and the chain takes it only
          after the date you agree.
        </li>
        <li>Until that date, you can both sign a release and the money comes to you, or cancel and pay the buyer back early.</li>
        <li>If nothing else is signed by the date, the refund pays the buyer back: the service sends it then.</li>
      </ul>
      <p>Nobody can take the money alone, this service included: it builds each transaction, and each of you signs in your own wallet.</p>
    </section>
  );
}
