import { useState } from 'preact/hooks';
import { ApiError, api } from '../api.js';
import { describe, Field, Problem } from '../form.js';
import { amountText, tokenPath, type Token, type TokenBalance } from '../tokens.js';

/**
 * "Check a balance": what an address holds of the token and whether it holds any (`GET
 * /api/v1/tokens/:token_id/balance/:address`, public), the check a membership gate makes: a customer shows
 * their wallet's address, and staff see at once whether it holds the pass.
 */
export function TokenBalanceCheck({ token }: { token: Token }) {
  const [answer, setAnswer] = useState<TokenBalance | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const fieldName = `address-${token.id}`;
  const submit = async (event: Event) => {
    event.preventDefault();
    const address = String(new FormData(event.currentTarget as HTMLFormElement).get(fieldName) ?? '').trim();
    setAnswer(null);
    setProblem(null);
    if (!/^[1-9A-HJ-NP-Za-km-z]{25,35}$/.test(address))
      return setProblem('Paste the whole address the customer’s wallet shows: 26 to 35 letters and digits.');
    setBusy(true);
    try {
      setAnswer(await api<TokenBalance>(`${tokenPath(token.token_id!)}/balance/${encodeURIComponent(address)}`, { key: null }));
    } catch (error) {
      setProblem(
        error instanceof ApiError && error.code === 'validation_failed'
          ? 'That is not an address on this chain: check it with the customer’s wallet and paste it whole.'
          : describe(error),
      );
    } finally {
      setBusy(false);
    }
  };
  return (
    <form class="balance-check" onSubmit={submit} noValidate aria-labelledby={`check-${token.id}`}>
      <h4 id={`check-${token.id}`}>Check a balance</h4>
      <Field
        label="Wallet address"
        name={fieldName}
        autoComplete="off"
        spellcheck={false}
        maxLength={35}
        hint={token.kind === 'membership' ? 'Whether it holds any is the membership check.' : 'What an address holds of it.'}
      />
      <button type="submit" class="secondary" disabled={busy}>
        Check
      </button>
      <p class={`holds${answer ? (answer.holds ? ' yes' : ' no') : ''}`} role="status" aria-live="polite">
        {answer && verdict(token, answer)}
      </p>
      <Problem problem={problem} />
    </form>
  );
}

/** What the balance means, in the kind's words: a member or not, or simply how much. */
function verdict(token: Token, answer: TokenBalance): string {
  const held = amountText(answer.balance, answer.decimals, answer.symbol);
  const unmined = BigInt(String(answer.balance)) - BigInt(String(answer.confirmed));
  const pending = unmined > 0n ? ` (${amountText(unmined.toString(), answer.decimals, answer.symbol)} of it not yet in a block)` : '';
  if (!answer.holds) return token.kind === 'membership' ? `Holds no ${answer.symbol}: not a member.` : `Holds no ${answer.symbol}.`;
  return token.kind === 'membership' ? `Holds ${held}${pending}: a member.` : `Holds ${held}${pending}.`;
}
