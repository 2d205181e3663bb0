import { useEffect, useState } from 'preact/hooks';
import { api } from '../api.js';
import { describe, Problem } from '../form.js';
import type { Escrow } from '../escrows.js';
import type { ShopWallet } from '../wallet-addresses.js';
import { EscrowCard } from './escrow-card.js';
import { EscrowForm } from './escrow-form.js';

/**
 * `/o/:handle/escrow`: escrow (decision 0038). What it is, in plain words; a form to agree one with a buyer and
 * an arbiter (escrow-form.tsx); and the shop's escrows (`GET /api/v1/orgs/:handle/escrows`, staff), each with
 * where it stands, its link for the other two, its funding, release and refund and who has signed them, and
 * the signing of each in the parties' own wallets (escrow-card.tsx). The service never holds a key or the money.
 */
export function EscrowPage({ handle }: { handle: string }) {
  const [wallet, setWallet] = useState<ShopWallet | null>(null);
  const [escrows, setEscrows] = useState<Escrow[] | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const load = () =>
    api<{ data: Escrow[] }>(`/api/v1/orgs/${encodeURIComponent(handle)}/escrows`).then(
      (answer) => setEscrows(answer.data),
      (error) => setProblem(describe(error)),
    );
  useEffect(() => {
    api<ShopWallet>(`/api/v1/organizations/${encodeURIComponent(handle)}`).then(setWallet, (error) => setProblem(describe(error)));
    void load();
  }, [handle]);
  const replace = (escrow: Escrow) => setEscrows((list) => (list ?? []).map((known) => (known.id === escrow.id ? escrow : known)));
  const agreed = (escrow: Escrow) => {
    setEscrows((list) => [escrow, ...(list ?? [])]);
    // The new escrow's heading takes the focus: a screen reader hears it, and a phone scrolls to it.
    requestAnimationFrame(() => document.getElementById(`escrow-${escrow.id}`)?.focus());
  };
  const shopKey = wallet?.identity_public_key ?? null;
  return (
    <>
      <h1>Escrow</h1>
      <EscrowExplained />
      <Problem problem={problem} />
      {wallet && !shopKey && (
        <p class="next">
          Your key in the lock is your wallet's identity key, and the shop has none registered yet: add your wallet's public key in{' '}
          <a href="/settings">Settings</a> first.
        </p>
      )}
      <EscrowForm handle={handle} shopKey={shopKey} onAgreed={agreed} />
      <section aria-labelledby="your-escrows">
        <h2 id="your-escrows">Your escrows</h2>
        {escrows === null && !problem && <p aria-busy="true">Loading…</p>}
        {escrows?.length === 0 && <p>No escrows yet. Agree one above.</p>}
        <ul class="entries">
          {escrows?.map((escrow) => (
            <EscrowCard key={escrow.id} escrow={escrow} onChange={replace} />
          ))}
        </ul>
      </section>
    </>
  );
}

/** What an escrow is, in plain words. */
function EscrowExplained() {
  return (
    <section class="card" aria-labelledby="what">
      <h2 id="what">What it does for you</h2>
      <p>
        An escrow keeps a buyer's money safe until a deal is done. Three people hold a key each: <strong>the buyer</strong>,{' '}
        <strong>you</strong>, and <strong>an arbiter</strong> you both trust. The buyer pays into a lock on the chain that needs any two of
        the three to move the money.
      </p>
      <ul>
        <li>The deal goes well: you and the buyer sign the release, and the money comes to you.</li>
        <li>The deal is off: you and the buyer sign a refund, and the money goes back to the buyer.</li>
        <li>You disagree: the arbiter signs with whichever of you is right.</li>
      </ul>
      <p>Nobody can take the money alone, this service included: it builds each transaction, and every party signs in their own wallet.</p>
    </section>
  );
}
