import { useEffect, useState } from 'preact/hooks';
import { api } from '../api.js';
import { describe, Problem } from '../form.js';
import { shopParties } from '../joint-parties.js';
import { escrowParties, type Escrow } from '../escrows.js';
import type { JointTransaction } from '../joint-transactions.js';
import type { ShopWallet } from '../wallet-addresses.js';
import { JointTransactionCard } from './joint-transaction-card.js';
import { JointTransactionForm } from './joint-transaction-form.js';

/**
 * `/o/:handle/psbt`: jointly signed transactions (decision 0037; BSV's answer to a PSBT). What they are; a form
 * to build one from coins on the chain (joint-transaction-form.tsx); and the shop's
 * (`GET /api/v1/orgs/:handle/joint-transactions`, staff), each with who has signed each input, its status, the
 * signing command to copy and the box for what a wallet printed (joint-transaction-card.tsx). The shop's own
 * wallet is named "you".
 */
export function JointTransactionsPage({ handle }: { handle: string }) {
  const [wallet, setWallet] = useState<ShopWallet | null>(null);
  const [joints, setJoints] = useState<JointTransaction[] | null>(null);
  const [escrows, setEscrows] = useState<Escrow[]>([]);
  const [problem, setProblem] = useState<string | null>(null);
  useEffect(() => {
    api<ShopWallet>(`/api/v1/organizations/${encodeURIComponent(handle)}`).then(setWallet, (error) => setProblem(describe(error)));
    // An escrow's funding, release and refund are joint transactions too: its parties are named by their part in it.
    api<{ data: Escrow[] }>(`/api/v1/orgs/${encodeURIComponent(handle)}/escrows`).then(
      (answer) => setEscrows(answer.data),
      () => setEscrows([]),
    );
    api<{ data: JointTransaction[] }>(`/api/v1/orgs/${encodeURIComponent(handle)}/joint-transactions`).then(
      (answer) => setJoints(answer.data),
      (error) => setProblem(describe(error)),
    );
  }, [handle]);
  const replace = (joint: JointTransaction) => setJoints((list) => (list ?? []).map((known) => (known.id === joint.id ? joint : known)));
  const built = (joint: JointTransaction) => {
    setJoints((list) => [joint, ...(list ?? [])]);
    requestAnimationFrame(() => document.getElementById(`joint-${joint.id}`)?.focus());
  };
  const parties = shopParties(wallet, joints ?? []);
  const escrowOf = new Map(
    escrows.flatMap((escrow) => [escrow.funding, escrow.release, escrow.refund].map((joint) => [joint?.id, escrow] as const)),
  );
  return (
    <>
      <h1>Partially signed transactions</h1>
      <section class="card" aria-labelledby="what">
        <h2 id="what">What it does for you</h2>
        <p>
          A transaction you and your partners sign together: a shared pot, a joint purchase, money held by two or more of you. The service
          builds it from coins on the chain and shows everyone the same transaction. Each partner signs the coins that are theirs in their
          own wallet and pastes the result here; once every coin is signed, the service checks the whole and sends it to the chain.
        </p>
        <p class="muted">
          Nobody's keys leave their wallet, and a signature counts only on the transaction you all agreed: a changed copy is refused.
        </p>
      </section>
      <Problem problem={problem} />
      <JointTransactionForm handle={handle} onBuilt={built} />
      <section aria-labelledby="your-joints">
        <h2 id="your-joints">Your jointly signed transactions</h2>
        {joints === null && !problem && <p aria-busy="true">Loading…</p>}
        {joints?.length === 0 && <p>None yet. Build one above.</p>}
        <ul class="entries">
          {joints?.map((joint) => (
            <JointTransactionCard
              key={joint.id}
              joint={joint}
              parties={escrowOf.has(joint.id) ? escrowParties(escrowOf.get(joint.id)!) : parties}
              escrowPage={escrowOf.has(joint.id) ? `/o/${handle}/escrow` : undefined}
              onChange={replace}
            />
          ))}
        </ul>
      </section>
    </>
  );
}
