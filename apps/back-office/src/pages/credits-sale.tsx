import { useState } from 'preact/hooks';
import { api } from '../api.js';
import { creditsValueMinor, unitsJson, type Answer, type CreditsSale, type ValuedCredits } from '../credits.js';
import { saleRefusal } from '../credits-refusals.js';
import { Field, Problem, Refusal } from '../form.js';
import { formatMoney } from '../format.js';
import { amountText, unitsOfAmount } from '../tokens.js';
import { CreditsSaleOrder } from './credits-sale-order.js';

/**
 * "Sell credits": staff sell a customer some of the shop's credits (`POST /api/v1/orgs/:handle/tokens/:token_id/sales`).
 * The service opens a pos order for their face value, untaxed; paid, the books owe its value to the customer
 * (2350 Customer credits liability) until the credits are spent, and the merchant's wallet sends the units
 * (the order's steps, credits-sale-order.tsx). The number is typed in the token's own unit and said back in money.
 */
export function CreditsSalePanel({ handle, token }: { handle: string; token: ValuedCredits }) {
  const [typed, setTyped] = useState('');
  const [sale, setSale] = useState<CreditsSale | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [unitsProblem, setUnitsProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const headingId = `sell-${token.id}`;
  const fieldName = `sell-units-${token.id}`;

  const submit = async (event: Event) => {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    setProblem(null);
    setUnitsProblem(null);
    let units: string;
    try {
      units = unitsOfAmount(typed, token.decimals, token.symbol, { what: 'the number of credits', whole: '20' });
    } catch (error) {
      setUnitsProblem(error instanceof Refusal ? error.message : String(error));
      requestAnimationFrame(() => form.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus());
      return;
    }
    setBusy(true);
    try {
      const answer = await api<Answer<'sale', CreditsSale>>(
        `/api/v1/orgs/${encodeURIComponent(handle)}/tokens/${encodeURIComponent(token.token_id)}/sales`,
        { method: 'POST', body: { units: unitsJson(units) } },
      );
      setSale(answer.sale ?? answer);
    } catch (error) {
      const refused = saleRefusal(error, token);
      setProblem(refused.units ? null : refused.problem);
      setUnitsProblem(refused.units ?? null);
    } finally {
      setBusy(false);
    }
  };

  return (
    <section class="credits-panel" aria-labelledby={headingId}>
      <h4 id={headingId}>Sell credits</h4>
      {sale ? (
        <CreditsSaleOrder sale={sale} token={token} onDone={() => (setSale(null), setTyped(''))} />
      ) : (
        <form onSubmit={submit} noValidate>
          <p class="muted">
            The customer pays an order for their face value, without tax. What it pays is money you owe them until they spend the credits
            with you. Once it is paid, you send the credits from your wallet.
          </p>
          <Field
            label="Credits to sell"
            name={fieldName}
            required
            inputMode="decimal"
            autoComplete="off"
            placeholder={token.decimals > 0 ? `20.${'0'.repeat(token.decimals)}` : '20'}
            hint={priceHint(typed, token)}
            problem={unitsProblem}
            value={typed}
            onInput={(event) => (setTyped((event.currentTarget as HTMLInputElement).value), setUnitsProblem(null), setProblem(null))}
          />
          <Problem problem={problem} />
          <button type="submit" disabled={busy}>
            {busy ? 'Opening the order…' : 'Open the order to pay'}
          </button>
        </form>
      )}
    </section>
  );
}

/** What the customer will pay, said back as it is typed. */
function priceHint(typed: string, token: ValuedCredits): string {
  const each = `How many ${token.symbol}, in the token itself.`;
  if (!typed.trim()) return each;
  try {
    const units = unitsOfAmount(typed, token.decimals, token.symbol);
    return `${amountText(units, token.decimals, token.symbol)}: the customer pays ${formatMoney(creditsValueMinor(token, units), token.currency)}.`;
  } catch {
    return each;
  }
}
