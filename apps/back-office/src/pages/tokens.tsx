import { useEffect, useState } from 'preact/hooks';
import { api } from '../api.js';
import { describe, Problem } from '../form.js';
import type { Token } from '../tokens.js';
import type { ShopWallet } from '../wallet-addresses.js';
import { TokenCard } from './token-card.js';
import { TokenMintForm } from './token-mint-form.js';
import { TokenMintSteps } from './token-mint-steps.js';

type Organization = ShopWallet & { role: 'owner' | 'admin' | 'staff' };

/**
 * `/o/:handle/tokens`: the shop's own tokens on the chain (decision 0036). What they are for, and what each
 * kind means for the books; the shop's tokens (`GET /api/v1/orgs/:handle/tokens`, staff) with, for an active
 * one, its holders and a balance check, and for active credits their sale and their redemption against an
 * order (token-card.tsx); and for an owner or admin, a mint drafted here and finished step by step in the
 * merchant's own wallet, which signs it and holds the supply: the service never holds a key.
 */
export function TokensPage({ handle }: { handle: string }) {
  const [org, setOrg] = useState<Organization | null>(null);
  const [tokens, setTokens] = useState<Token[] | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [finishing, setFinishing] = useState<Token | null>(null);
  const load = () =>
    api<{ data: Token[] }>(`/api/v1/orgs/${encodeURIComponent(handle)}/tokens`).then(
      (answer) => setTokens(answer.data),
      (error) => setProblem(describe(error)),
    );
  useEffect(() => {
    api<Organization>(`/api/v1/organizations/${encodeURIComponent(handle)}`).then(setOrg, (error) => setProblem(describe(error)));
    void load();
  }, [handle]);
  const admin = org !== null && org.role !== 'staff';
  return (
    <>
      <h1>Tokens</h1>
      <TokensExplained />
      <Problem problem={problem} />
      {finishing ? (
        <TokenMintSteps
          key={finishing.id}
          handle={handle}
          token={finishing}
          onActive={() => void load()}
          onClose={() => setFinishing(null)}
        />
      ) : admin ? (
        <TokenMintForm handle={handle} onDrafted={(token) => (setFinishing(token), void load())} />
      ) : (
        org && <p class="next">You can see the shop's tokens here; only the shop's owner or an admin can mint one.</p>
      )}
      <section aria-labelledby="your-tokens">
        <h2 id="your-tokens">Your tokens</h2>
        {tokens === null && !problem && <p aria-busy="true">Loading…</p>}
        {tokens?.length === 0 && <p>No tokens yet.{admin && ' Mint one above.'}</p>}
        <ul class="entries">
          {tokens?.map((token) => (
            <TokenCard key={token.id} handle={handle} token={token} admin={admin} wallet={org} onFinish={setFinishing} />
          ))}
        </ul>
      </section>
    </>
  );
}

/** What tokens do for a shop, and what each kind means for its books, in plain words. */
function TokensExplained() {
  return (
    <section class="card" aria-labelledby="what">
      <h2 id="what">What it does for you</h2>
      <p>Mint a token of your own on the chain, for one of three things:</p>
      <ul>
        <li>
          <strong>A membership</strong>: holding one is the pass. Anyone can check whether a customer's wallet holds it. It is not money:
          you owe its holder nothing for it.
        </li>
        <li>
          <strong>Credits</strong>: customers buy them in advance and spend them with you. Each has a face value you set when you mint them,
          such as $1.00. Credits you have sold are money you owe, like a gift card's balance, until they are spent. Minting them is not a
          sale: what your wallet still holds is owed to nobody. Sell them and redeem them against orders here: the books keep what a sale
          paid as owed to your customers (Customer credits liability) until the credits pay for an order.
        </li>
        <li>
          <strong>A community currency</strong>: units people pass to each other, for whatever your community agrees they are worth.
        </li>
      </ul>
      <p>
        Your own wallet signs the mint and holds the whole supply, at a fresh address of its own. This service builds the transaction and
        shows who holds the token; it never holds your keys or your tokens. You hand tokens out from your wallet (
        <code>pnpm wallet send-token</code>).
      </p>
    </section>
  );
}
