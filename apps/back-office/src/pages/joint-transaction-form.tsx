import { useState } from 'preact/hooks';
import { api } from '../api.js';
import { Field, Problem, Refusal } from '../form.js';
import { buildRefusal, type BuildProblems } from '../joint-refusals.js';
import { outpointsOf, paymentsOf, type JointTransaction } from '../joint-transactions.js';
import { TextAreaField } from '../text-area-field.js';

/** Said under the form while a field is marked. */
const CHECK_FIELDS = 'Check the fields marked above.';

/** The form's inputs by the mark each one clears when edited. */
const MARK_OF: Record<string, keyof BuildProblems> = {
  'joint-inputs': 'inputs',
  'joint-outputs': 'outputs',
  'joint-change': 'change',
  'joint-description': 'description',
};

type Props = { handle: string; onBuilt: (joint: JointTransaction) => void };

/**
 * "Build a transaction": the coins it spends (one `txid:vout` a line: P2PKH or bare multisig outputs on the
 * chain), what it pays (one `address satoshis` a line), where the rest goes, and what it is for
 * (`POST /api/v1/orgs/:handle/joint-transactions`). A line the page cannot read, and the route's refusal of one,
 * is said beside its box by its line number.
 */
export function JointTransactionForm({ handle, onBuilt }: Props) {
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [fields, setFields] = useState<BuildProblems>({});

  const refuse = (said: string, about: BuildProblems, form: HTMLFormElement) => {
    setProblem(said);
    setFields(about);
    requestAnimationFrame(() => form.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus());
  };

  const edited = (event: Event) => {
    const mark = MARK_OF[(event.target as HTMLInputElement).name];
    if (!mark || !fields[mark]) return;
    const rest = { ...fields };
    delete rest[mark];
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
    const typed: BuildProblems = {};
    const read = <T,>(field: keyof BuildProblems, parse: () => T): T | undefined => {
      try {
        return parse();
      } catch (error) {
        typed[field] = error instanceof Refusal ? error.message : String(error);
        return undefined;
      }
    };
    const inputs = read('inputs', () => outpointsOf(text('joint-inputs')));
    const outputs = read('outputs', () => paymentsOf(text('joint-outputs')));
    const change = text('joint-change');
    if (outputs?.length === 0 && !change) typed.outputs = 'Pay at least one address, or give a change address for all of it.';
    if (!inputs || !outputs || typed.outputs) return refuse(CHECK_FIELDS, typed, element);
    setBusy(true);
    try {
      const joint = await api<JointTransaction>(`/api/v1/orgs/${encodeURIComponent(handle)}/joint-transactions`, {
        method: 'POST',
        body: { inputs, outputs, description: text('joint-description'), ...(change ? { change_address: change } : {}) },
      });
      element.reset();
      onBuilt(joint);
    } catch (error) {
      const refused = buildRefusal(error);
      refuse(refused.problem, refused.fields, element);
    } finally {
      setBusy(false);
    }
  };

  return (
    <section class="card" aria-labelledby="build">
      <h2 id="build">Build a transaction</h2>
      <p class="muted">
        The service reads each coin on the chain and builds the transaction; nobody's wallet signs anything yet. Then each partner signs the
        coins that are theirs.
      </p>
      <form onSubmit={submit} onInput={edited} noValidate>
        <TextAreaField
          label="Coins it spends"
          name="joint-inputs"
          rows={3}
          problem={fields.inputs}
          hint="One a line: the transaction id, a colon and the output's number, such as 5b91…9ed6:0. Each a coin on the chain, at an address or a shared (multisig) lock."
        />
        <TextAreaField
          label="What it pays"
          name="joint-outputs"
          rows={3}
          problem={fields.outputs}
          hint="One a line: an address and an amount in satoshis, such as mvrL9vaRfSLAMiav4cU3aMCUCzi8seaki8 150000."
        />
        <Field
          label="Change address (optional)"
          name="joint-change"
          autoComplete="off"
          spellcheck={false}
          problem={fields.change}
          hint="Where what the coins hold beyond the payments and the fee goes. Empty: all of it is the fee."
        />
        <Field
          label="What it is for"
          name="joint-description"
          maxLength={200}
          autoComplete="off"
          problem={fields.description}
          hint="Every partner sees it, e.g. Shared pot for the spring market stall."
        />
        <Problem problem={problem} />
        <button type="submit" disabled={busy}>
          Build the transaction
        </button>
      </form>
    </section>
  );
}
