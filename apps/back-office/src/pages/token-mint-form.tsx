import { useState } from 'preact/hooks';
import { api } from '../api.js';
import { Field, Problem, Refusal } from '../form.js';
import { currencyDigits, unitValueOfFaceValue } from '../credits.js';
import { mintRefusal, type FieldProblems } from '../token-refusals.js';
import { amountText, KIND_TEXT, MAX_DECIMALS, symbolProblem, unitsOfAmount, type Token, type TokenKind } from '../tokens.js';
import { TokenFaceValueFields } from './token-face-value.js';

const KINDS = Object.keys(KIND_TEXT) as TokenKind[];

/** Said under the form while a field is marked. */
const CHECK_FIELDS = 'Check the fields marked above.';

/** The marks an edit of an input makes stale: its own, and the face value's when what it is measured in changes. */
const MARKS_OF: Record<string, (keyof FieldProblems)[]> = {
  symbol: ['symbol'],
  name: ['name'],
  supply: ['supply'],
  decimals: ['decimals', 'supply', 'face_value'],
  'face-value': ['face_value'],
  currency: ['currency', 'face_value'],
};

/**
 * "Mint a token": the kind, symbol, name, decimals and supply, drafted by the contracts service into the
 * unsigned transaction the merchant's wallet signs (`POST /api/v1/orgs/:handle/tokens`, an admin's). The
 * supply is typed in the token's own unit and sent as whole units by its digits; the page says how many
 * units that is as it is typed, since a wallet shows units and the chain counts them. Credits also take their
 * face value, one whole token's worth in a currency, sent as `unit_value_minor` per unit (token-face-value.tsx);
 * other kinds send none. A refusal is said in words, beside the field it is about.
 */
export function TokenMintForm({ handle, onDrafted }: { handle: string; onDrafted: (token: Token) => void }) {
  const [kind, setKind] = useState<TokenKind>('membership');
  const [symbol, setSymbol] = useState('');
  const [decimals, setDecimals] = useState(0);
  const [supply, setSupply] = useState('');
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [fields, setFields] = useState<FieldProblems>({});

  /** Says what is wrong; the first field it is about takes the focus, so a phone shows it and a screen reader reads it. */
  const refuse = (said: string, about: FieldProblems, form: HTMLFormElement) => {
    setProblem(said);
    setFields(about);
    requestAnimationFrame(() => form.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus());
  };

  /** An input edited: what was said about it no longer stands, and goes. */
  const edited = (event: Event) => {
    const marks = MARKS_OF[(event.target as HTMLInputElement).name] ?? [];
    if (!marks.some((mark) => fields[mark])) return;
    const rest = { ...fields };
    for (const mark of marks) delete rest[mark];
    setFields(rest);
    if (problem === CHECK_FIELDS && !Object.values(rest).some(Boolean)) setProblem(null);
  };

  const submit = async (event: Event) => {
    event.preventDefault();
    const element = event.currentTarget as HTMLFormElement;
    const form = new FormData(element);
    const text = (name: string) => String(form.get(name) ?? '').trim();
    setProblem(null);
    setFields({});
    const typed: FieldProblems = {};
    typed.symbol = symbolProblem(text('symbol')) ?? undefined;
    if (!text('name')) typed.name = 'Give it the name your customers know it by, such as Brew Club membership.';
    let units = '';
    try {
      units = unitsOfAmount(text('supply'), decimals, text('symbol'));
    } catch (error) {
      typed.supply = error instanceof Refusal ? error.message : String(error);
    }
    let faceValue: { unit_value_minor: number; currency: string } | undefined;
    if (kind === 'credits') {
      const currency = text('currency').toUpperCase();
      if (currencyDigits(currency) === null) typed.currency = 'Write the currency as its three-letter code, such as USD or EUR.';
      else
        try {
          faceValue = { unit_value_minor: unitValueOfFaceValue(text('face-value'), decimals, currency, text('symbol')), currency };
        } catch (error) {
          typed.face_value = error instanceof Refusal ? error.message : String(error);
        }
    }
    if (typed.symbol || typed.name || typed.supply || typed.face_value || typed.currency) return refuse(CHECK_FIELDS, typed, element);
    setBusy(true);
    try {
      const token = await api<Token>(`/api/v1/orgs/${encodeURIComponent(handle)}/tokens`, {
        method: 'POST',
        body: { kind, symbol: text('symbol'), name: text('name'), decimals, supply: units, ...faceValue },
      });
      onDrafted(token);
    } catch (error) {
      const refused = mintRefusal(error);
      refuse(refused.problem, refused.fields, element);
    } finally {
      setBusy(false);
    }
  };

  return (
    <section class="card" aria-labelledby="mint">
      <h2 id="mint">Mint a token</h2>
      <p class="muted">
        The service drafts the transaction; your wallet signs it. The whole supply goes to a fresh address of your wallet, and the fee (a
        few satoshis) comes from your wallet's coins.
      </p>
      <form onSubmit={submit} onInput={edited} noValidate>
        <fieldset class="options">
          <legend>What it is for</legend>
          {KINDS.map((choice) => (
            <label class="check kind" key={choice}>
              <input type="radio" name="kind" value={choice} checked={kind === choice} onChange={() => setKind(choice)} />
              <span>
                <strong>{KIND_TEXT[choice].title}</strong>: {KIND_TEXT[choice].about}
              </span>
            </label>
          ))}
        </fieldset>
        <Field
          label="Symbol"
          name="symbol"
          required
          maxLength={16}
          autoComplete="off"
          spellcheck={false}
          autoCapitalize="characters"
          placeholder="BREW"
          hint="What wallets show beside the amount: one word, up to 16 characters. It cannot be changed once minted."
          problem={fields.symbol}
          value={symbol}
          onInput={(event) => setSymbol((event.currentTarget as HTMLInputElement).value.trim())}
        />
        <Field
          label="Name"
          name="name"
          required
          maxLength={100}
          autoComplete="off"
          placeholder="Brew Club membership"
          hint="What your shop calls it. Kept here; the chain holds the symbol."
          problem={fields.name}
        />
        <label class="field">
          <span>Decimals</span>
          <select
            name="decimals"
            value={String(decimals)}
            aria-describedby="decimals-hint"
            onChange={(event) => setDecimals(Number((event.currentTarget as HTMLSelectElement).value))}
          >
            {Array.from({ length: MAX_DECIMALS + 1 }, (_, n) => (
              <option key={n} value={String(n)}>
                {n === 0 ? '0: whole tokens only' : `${n}: such as ${amountText(10 ** n + 50 * 10 ** (n - 1), n, '').trim()}`}
              </option>
            ))}
          </select>
          <small id="decimals-hint" class="hint">
            Where a wallet puts the point. A membership is usually whole (0); credits often have 2, like cents.
          </small>
        </label>
        <Field
          label="Supply"
          name="supply"
          required
          inputMode="decimal"
          autoComplete="off"
          placeholder={decimals > 0 ? `1000.${'0'.repeat(decimals)}` : '1000'}
          hint={supplyHint(supply, decimals, symbol)}
          problem={fields.supply}
          value={supply}
          onInput={(event) => setSupply((event.currentTarget as HTMLInputElement).value)}
        />
        {kind === 'credits' && <TokenFaceValueFields decimals={decimals} symbol={symbol} problems={fields} />}
        <Problem problem={problem} />
        <button type="submit" disabled={busy}>
          {busy ? 'Drafting…' : 'Draft the mint'}
        </button>
      </form>
    </section>
  );
}

/** How many tokens there will be, said back as the chain will count them, or what to type. */
function supplyHint(typed: string, decimals: number, symbol: string): string {
  const every = 'How many there will ever be, in the token itself. All of it goes to your wallet; no more can be minted later.';
  if (!typed.trim()) return every;
  try {
    const units = unitsOfAmount(typed, decimals, symbol);
    return `${amountText(units, decimals, symbol || 'tokens')}: ${new Intl.NumberFormat('en-US').format(BigInt(units))} units on the chain. ${every}`;
  } catch {
    return every;
  }
}
