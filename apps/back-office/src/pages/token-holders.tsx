import { useEffect, useMemo, useState } from 'preact/hooks';
import { api } from '../api.js';
import { describe, Problem } from '../form.js';
import { amountText, tokenPath, type Token, type TokenHolders } from '../tokens.js';
import { shopWalletAddresses, type ShopWallet } from '../wallet-addresses.js';

/**
 * Who holds an active token and how much (`GET /api/v1/tokens/:token_id/holders`, public: the token indexer's
 * count, unmined transfers it validated included), most first; the shop's own addresses (the mint's, and its
 * wallet's, where a transfer's change goes) are named as its wallet. Read again on request: tokens move in
 * wallets, not through this page.
 */
export function TokenHoldersList({ token, wallet }: { token: Token; wallet: ShopWallet | null }) {
  const own = useMemo(() => shopWalletAddresses(wallet ?? {}, token.owner_address), [wallet, token.owner_address]);
  const [holders, setHolders] = useState<TokenHolders['holders'] | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [reading, setReading] = useState(false);
  const read = () => {
    setReading(true);
    setProblem(null);
    api<TokenHolders>(`${tokenPath(token.token_id!)}/holders`, { key: null })
      .then(
        (answer) => setHolders(answer.holders),
        (error) => setProblem(describe(error)),
      )
      .finally(() => setReading(false));
  };
  useEffect(read, [token.token_id]);
  const captionId = `holders-${token.id}`;
  return (
    <div class="holders">
      <h4 id={captionId}>Who holds it</h4>
      <Problem problem={problem} />
      {holders && holders.length === 0 && <p>Nobody holds any: every unit was spent or burned.</p>}
      {holders && holders.length > 0 && (
        <table class="lines holders-table" aria-labelledby={captionId}>
          <thead>
            <tr>
              <th scope="col">Address</th>
              <th scope="col">Holds</th>
            </tr>
          </thead>
          <tbody>
            {holders.map((holder) => (
              <tr key={holder.address}>
                <td class="address">
                  <code>{holder.address}</code>
                  {own.has(holder.address) && <small class="muted"> your wallet</small>}
                </td>
                <td>{amountText(holder.balance, token.decimals, token.symbol)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <p>
        <button type="button" class="secondary" onClick={read} disabled={reading} aria-describedby={captionId}>
          {reading ? 'Reading…' : 'Read again'}
        </button>
      </p>
    </div>
  );
}
