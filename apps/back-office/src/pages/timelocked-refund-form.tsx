import { useState } from 'preact/hooks';
import { api } from '../api.js';
import { CHECK_FIELDS, keyProblem, lockedSatoshisOf } from '../contract-terms.js';
import { Field, Problem, Refusal } from '../form.js';
import { PayeeAddressFields } from './payee-address-fields.js';
import { formatDateTimeFull, momentInZone, shopZone, wallClock } from '../format.js';
import { satoshisOf, satoshisText } from '../satoshis.js';
import {
  EARLIEST_MS,
  LATEST_MS,
  refundTermsRefusal,
  type RefundField,
  type RefundProblems,
  type TimelockedRefund,
} from '../timelocked-refunds.js';

type Props = { handle: string; shopKey: string | null; onAgreed: (refund: TimelockedRefund) => void };

/**
 * "Agree a time-locked refund": the buyer's public key, what the lock holds in satoshis (said back in BSV as it
 * is typed), the date and time after which the buyer is refunded, typed on the shop's wall clock (its time zone
 * named, said back in full as it is typed, and sent as the moment it names), what it is for, and where a release
 * and the refund pay if not the default (`POST /api/v1/orgs/:handle/timelocked-refunds`). What the page can tell
 * is wrong is said beside its field before anything is sent; the route's refusals are said there too.
 */
export function TimelockedRefundForm({ handle, shopKey, onAgreed }: Props) {
  const [amount, setAmount] = useState('');
  const [when, setWhen] = useState('');
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [fields, setFields] = useState<RefundProblems>({});
  const zone = shopZone();

  const refuse = (said: string, about: RefundProblems, form: HTMLFormElement) => {
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
    const name = (event.target as HTMLInputElement).name as RefundField;
    if (!fields[name]) return;
    const rest = { ...fields };
    delete rest[name];
    setFields(rest);
    if (problem === CHECK_FIELDS && !Object.values(rest).some(Boolean)) setProblem(null);
  };

  const submit = async (event: Event) => {
    event.preventDefault();
    const element = event.currentTarget as HTMLFormElement;
    const form = new FormData(element);
    const text = (name: RefundField) => String(form.get(name) ?? '').trim();
    const buyer = text('buyer_public_key').toLowerCase();
    setProblem(null);
    setFields({});
    const typed: RefundProblems = {};
    typed.buyer_public_key = keyProblem(buyer, 'the buyer', shopKey) ?? undefined;
    let satoshis = 0;
    try {
      satoshis = lockedSatoshisOf(text('satoshis'), 'The lock');
    } catch (error) {
      typed.satoshis = error instanceof Refusal ? error.message : String(error);
    }
    const moment = refundMoment(text('refund_after'), zone);
    if (typeof moment === 'string') typed.refund_after = moment;
    if (Object.values(typed).some(Boolean) || typeof moment === 'string') return refuse(CHECK_FIELDS, typed, element);
    setBusy(true);
    try {
      const refund = await api<TimelockedRefund>(`/api/v1/orgs/${encodeURIComponent(handle)}/timelocked-refunds`, {
        method: 'POST',
        body: {
          buyer_public_key: buyer,
          satoshis,
          refund_after: moment.toISOString(),
          description: text('description'),
          ...(text('release_address') ? { release_address: text('release_address') } : {}),
          ...(text('refund_address') ? { refund_address: text('refund_address') } : {}),
        },
      });
      element.reset();
      setAmount('');
      setWhen('');
      onAgreed(refund);
    } catch (error) {
      const refused = refundTermsRefusal(error);
      refuse(refused.problem, refused.fields, element);
    } finally {
      setBusy(false);
    }
  };

  let amountSaid = 'At least 1,000 satoshis.';
  try {
    if (amount.trim()) amountSaid = `${satoshisText(satoshisOf(amount))}. At least 1,000 satoshis.`;
  } catch {
    // Said beside the field when the form is sent.
  }
  const typedMoment = when ? momentInZone(when, zone) : null;
  const whenSaid = typedMoment
    ? `${formatDateTimeFull(typedMoment)}, ${zone} time. At least an hour and at most two years from now.`
    : `On the shop's clock (${zone}). At least an hour and at most two years from now.`;
  const now = Date.now();

  return (
    <section class="card" aria-labelledby="agree">
      <h2 id="agree">Agree a time-locked refund</h2>
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
          label="Amount in satoshis"
          name="satoshis"
          required
          inputMode="numeric"
          autoComplete="off"
          placeholder="50000"
          problem={fields.satoshis}
          hint={amountSaid}
          value={amount}
          onInput={(event) => setAmount((event.currentTarget as HTMLInputElement).value)}
        />
        <Field
          label="Refund after"
          name="refund_after"
          type="datetime-local"
          required
          min={wallClock(new Date(now + EARLIEST_MS), zone).slice(0, 16)}
          max={wallClock(new Date(now + LATEST_MS), zone).slice(0, 16)}
          problem={fields.refund_after}
          hint={whenSaid}
          value={when}
          onInput={(event) => setWhen((event.currentTarget as HTMLInputElement).value)}
        />
        <p class="muted">
          Until this date and time you and the buyer can release the money to you or cancel it back to the buyer; after it, the buyer can
          take it back with the refund you both sign first.
        </p>
        <Field
          label="What it is for"
          name="description"
          maxLength={200}
          autoComplete="off"
          problem={fields.description}
          hint="The buyer sees it with the refund, e.g. Deposit on a wedding cake."
        />
        <PayeeAddressFields problems={fields} />
        <Problem problem={problem} />
        <button type="submit" disabled={busy}>
          Agree the time-locked refund
        </button>
      </form>
    </section>
  );
}

/** The moment the refund date names on the shop's clock, or what is wrong with it in words. */
function refundMoment(local: string, zone: string): Date | string {
  if (!local) return 'Choose the date and time after which the buyer may take the money back.';
  const moment = momentInZone(local, zone);
  if (!moment) return `That time does not exist in ${zone}: the clocks skip it. Choose another.`;
  const ahead = moment.getTime() - Date.now();
  if (ahead < EARLIEST_MS) return 'Choose a date and time at least an hour from now.';
  if (ahead > LATEST_MS) return 'Choose a date and time at most two years from now.';
  return moment;
}
