import { faceValueText, isValuedCredits } from '../credits.js';
import { formatDateTime } from '../format.js';
import { amountText, KIND_TEXT, type Token } from '../tokens.js';
import type { ShopWallet } from '../wallet-addresses.js';
import { CreditsRedemptionPanel } from './credits-redemption.js';
import { CreditsSalePanel } from './credits-sale.js';
import { TokenBalanceCheck } from './token-balance-check.js';
import { TokenHoldersList } from './token-holders.js';

type Props = { handle: string; token: Token; admin: boolean; wallet: ShopWallet | null; onFinish: (token: Token) => void };

/**
 * One of the shop's tokens: its symbol, name, kind, supply in its own unit, credits' face value, status and
 * token id. An active token shows who holds it and checks an address's balance, and active credits are sold
 * and redeemed against orders from here; a draft says it waits for the wallet's signature, and an admin
 * finishes it from here (its steps open above the list).
 */
export function TokenCard({ handle, token, admin, wallet, onFinish }: Props) {
  const active = token.status === 'active';
  const headingId = `token-${token.id}`;
  return (
    <li class="card token">
      <h3 id={headingId}>
        {token.symbol} <span class="muted">· {token.name}</span>{' '}
        <span class={`tag ${token.status}`}>{active ? 'Active' : 'Draft: not minted yet'}</span>
      </h3>
      <dl class="facts">
        <dt>Kind</dt>
        <dd>{KIND_TEXT[token.kind].title}</dd>
        <dt>Supply</dt>
        <dd>{amountText(token.supply, token.decimals, token.symbol)}</dd>
        <dt>Decimals</dt>
        <dd>{token.decimals}</dd>
        {token.kind === 'credits' && (
          <>
            <dt>Face value</dt>
            <dd>{faceValueText(token) ?? 'None: minted before credits had one'}</dd>
          </>
        )}
        <dt>{active ? 'Minted' : 'Drafted'}</dt>
        <dd>{formatDateTime(active && token.deployed_at ? token.deployed_at : token.created_at)}</dd>
      </dl>
      {token.kind === 'credits' && <p class="muted">Credits you sell are money you owe their holders until they are spent with you.</p>}
      {active ? (
        <>
          <p class="txid">
            Token id <code>{token.token_id}</code>
          </p>
          {isValuedCredits(token) && (
            <>
              <CreditsSalePanel handle={handle} token={token} />
              <CreditsRedemptionPanel handle={handle} token={token} />
            </>
          )}
          {token.kind === 'credits' && !isValuedCredits(token) && (
            <p>These credits have no face value, so they cannot be sold or redeemed here: mint credits with one.</p>
          )}
          <TokenHoldersList token={token} wallet={wallet} />
          <TokenBalanceCheck token={token} />
        </>
      ) : (
        <>
          <p>Waiting for your wallet to sign it: nothing is on the chain yet.</p>
          {admin && (
            <button type="button" class="secondary" onClick={() => onFinish(token)}>
              Finish the mint of {token.symbol}
            </button>
          )}
        </>
      )}
    </li>
  );
}
