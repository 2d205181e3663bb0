import { useState } from 'preact/hooks';
import { api } from '../api.js';
import { CHECK_FIELDS, keyProblem, lockedSatoshisOf } from '../contract-terms.js';
import { orderNumberOf } from '../credits.js';
import { ORDER_NUMBER_WORDS } from '../credits-refusals.js';
import { Field, Problem, Refusal } from '../form.js';
import { PayeeAddressFields } from './payee-address-fields.js';
import { agreeRefusal, type EscrowField, type EscrowProblems } from '../escrow-refusals.js';
import type { Escrow } from '../escrows.js';
import { satoshisOf, satoshisText } from '../satoshis.js';

type Props = { handle: string; shopKey: string | null; onAgreed: (escrow: Escrow) => void };

/** What the lock holds: an amount typed, or what one of the shop's open pos orders is due. */
type Holds = 'satoshis' | 'order';
const HOLDS: [Holds, string][] = [
  ['satoshis', 'An amount in satoshis'],
  ['order', 'A pos order'],
];

/**
 * "Agree an escrow": the buyer's and the arbiter's public keys, what the lock holds: an amount in satoshis (said
 * back in BSV as it is typed) or a pos order's number (the service locks what the order is due and the release's
 * fee), what it is for, and where a release and a refund pay if not the default
 * (`POST /api/v1/orgs/:handle/escrows`). What the page can tell is wrong is said beside its field before
 * anything is sent; the route's refusals are said there too.
 */
export function EscrowForm({ handle, shopKey, onAgreed }: Props) {
  const [holds, setHolds] = useState<Holds>('satoshis');
  const [amount, setAmount] = useState('');
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [fields, setFields] = useState<EscrowProblems>({});

  const refuse = (said: string, about: EscrowProblems, form: HTMLFormElement) => {
    setProblem(said);
    setFields(about);
    requestAnimationFrame(() => {
      const first = form.querySelector<HTMLElement>('[aria-invalid="true"]');
      // A field of the optional part is shown before it takes the focus.
      first?.closest('details')?.setAttribute('open', '');
      first?.focus();
    });
  };

  /** An input edited: what was said about it no longer stands. */
  const edited = (event: Event) => {
    const name = (event.target as HTMLInputElement).name as EscrowField;
    if (!fields[name]) return;
    const rest = { ...fields };
    delete rest[name];
    setFields(rest);
    if (problem === CHECK_FIELDS && !Object.values(rest).some(Boolean)) setProblem(null);
  };

  /** The other way chosen: what was said about the one left no longer stands. */
  const choose = (choice: Holds) => {
    setHolds(choice);
    const rest = { ...fields, satoshis: undefined, order_number: undefined };
    setFields(rest);
    if (problem === CHECK_FIELDS && !Object.values(rest).some(Boolean)) setProblem(null);
  };

  const submit = async (event: Event) => {
    event.preventDefault();
    const element = event.currentTarget as HTMLFormElement;
    const form = new FormData(element);
    const text = (name: EscrowField) => String(form.get(name) ?? '').trim();
    const buyer = text('buyer_public_key').toLowerCase();
    const arbiter = text('arbiter_public_key').toLowerCase();
    setProblem(null);
    setFields({});
    const typed: EscrowProblems = {};
    typed.buyer_public_key = keyProblem(buyer, 'the buyer', shopKey) ?? undefined;
    typed.arbiter_public_key = keyProblem(arbiter, 'the arbiter', shopKey) ?? undefined;
    if (!typed.arbiter_public_key && arbiter === buyer)
      typed.arbiter_public_key = 'The arbiter must hold a key of their own: this is the buyer’s key.';
    let satoshis = 0;
    const orderNumber = holds === 'order' ? orderNumberOf(text('order_number')) : null;
    if (holds === 'order' && !orderNumber) typed.order_number = ORDER_NUMBER_WORDS;
    if (holds === 'satoshis')
      try {
        satoshis = lockedSatoshisOf(text('satoshis'), 'An escrow');
      } catch (error) {
        typed.satoshis = error instanceof Refusal ? error.message : String(error);
      }
    if (Object.values(typed).some(Boolean)) return refuse(CHECK_FIELDS, typed, element);
    setBusy(true);
    try {
      const escrow = await api<Escrow>(`/api/v1/orgs/${encodeURIComponent(handle)}/escrows`, {
        method: 'POST',
        body: {
          buyer_public_key: buyer,
          arbiter_public_key: arbiter,
          ...(orderNumber ? { order_number: orderNumber } : { satoshis }),
          description: text('description'),
          ...(text('release_address') ? { release_address: text('release_address') } : {}),
          ...(text('refund_address') ? { refund_address: text('refund_address') } : {}),
        },
      });
      element.reset();
      setHolds('satoshis');
      setAmount('');
      onAgreed(escrow);
    } catch (error) {
      const refused = agreeRefusal(error);
      refuse(refused.problem, refused.fields, element);
    } finally {
      setBusy(false);
    }
  };

  let said = 'At least 1,000 satoshis.';
  try {
    if (amount.trim()) said = `${satoshisText(satoshisOf(amount))}. At least 1,000 satoshis.`;
  } catch {
    // Said beside the field when the form is sent.
  }

  return (
    <section class="card" aria-labelledby="agree">
      <h2 id="agree">Agree an escrow</h2>
      <form onSubmit={submit} onInput={edited} noValidate>
        <Field
          label="Buyer's public key"
          name="buyer_public_key"
          required
          autoComplete="off"
          spellcheck={false}
          problem={fields.buyer_public_key}
          hint="The buyer's wallet shows it: pnpm wallet address --json prints it as public_key. 66 letters and digits, starting with 02 or 03."
        />
        <Field
          label="Arbiter's public key"
          name="arbiter_public_key"
          required
          autoComplete="off"
          spellcheck={false}
          problem={fields.arbiter_public_key}
          hint="Someone you and the buyer both trust to decide if you disagree. Their wallet's public key, as the buyer's."
        />
        <fieldset class="options">
          <legend>What the lock holds</legend>
          {HOLDS.map(([choice, label]) => (
            <label class="check" key={choice}>
              {/* Checked by default too, so that the form's reset leaves the amount chosen, as the state does. */}
              <input
                type="radio"
                name="holds"
                value={choice}
                checked={holds === choice}
                defaultChecked={choice === 'satoshis'}
                onChange={() => choose(choice)}
              />
              <span>{label}</span>
            </label>
          ))}
        </fieldset>
        {holds === 'satoshis' ? (
          <Field
            label="Amount in satoshis"
            name="satoshis"
            required
            inputMode="numeric"
            autoComplete="off"
            placeholder="150000"
            problem={fields.satoshis}
            hint={said}
            value={amount}
            onInput={(event) => setAmount((event.currentTarget as HTMLInputElement).value)}
          />
        ) : (
          <Field
            label="Order number"
            name="order_number"
            required
            autoComplete="off"
            spellcheck={false}
            autoCapitalize="characters"
            maxLength={12}
            placeholder="7Q2M9K4X1C"
            problem={fields.order_number}
            hint="An open order nothing has paid yet: the ten letters and digits on the counter's screen or the receipt. The lock holds what the order is due in satoshis and the release's fee, so a release pays you the order."
          />
        )}
        <Field
          label="What it is for"
          name="description"
          maxLength={200}
          autoComplete="off"
          problem={fields.description}
          hint={
            holds === 'order'
              ? 'The buyer and the arbiter see it with the escrow. Empty: Order and its number.'
              : 'The buyer and the arbiter see it with the escrow, e.g. Wedding cake, delivered on 12 June.'
          }
        />
        <PayeeAddressFields problems={fields} />
        <Problem problem={problem} />
        <button type="submit" disabled={busy}>
          Agree the escrow
        </button>
      </form>
    </section>
  );
}
