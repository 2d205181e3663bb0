import { useState } from 'preact/hooks';
import { api } from '../api.js';
import { Field, Problem } from '../form.js';
import { stillNeeded, type Parties } from '../joint-parties.js';
import { signaturesRefusal } from '../joint-refusals.js';
import { jointPath, signCommand, type JointTransaction } from '../joint-transactions.js';
import { CopyButton } from '../copy-button.js';
import { shellWord } from '../tokens.js';
import { JointSummary } from './joint-summary.js';

type Props = {
  joint: JointTransaction;
  parties: Parties;
  /** The level of the steps' headings, under the heading the panel sits under. */
  level: 4 | 5;
  onChange: (joint: JointTransaction) => void;
  /**
   * Why a complete transaction is not on the chain, when a contract holds it there on purpose (a time-locked
   * refund's funding until the refund is signed, the refund until its date: decision 0039): said instead of
   * offering to send it again.
   */
  held?: string;
};

/**
 * Where the signatures stand after a paste, said in the status region; one about a held transaction only while it
 * stays held as it was (`about`: once it went to the chain, or its contract settled, its summary says it instead).
 */
type Said = { text: string; done?: boolean; about?: string } | null;

/**
 * A joint transaction and its signing (decision 0037): what it spends and pays and who has signed; while it
 * collects signatures, the exact `pnpm wallet --file <file> sign-transaction --partial <hex>` command to copy
 * (each partner runs it with their own wallet file) and a box for what the wallet printed, handed to
 * `POST /api/v1/joint-transactions/:id/signatures`. The service checks each signature against the agreed
 * transaction and broadcasts it once complete; each refusal is said in words. A complete one the chain did not
 * take yet is sent again, unless a contract holds it (`held` says why). The page never sees a key, only what the
 * wallet printed.
 */
export function JointPanel({ joint, parties, level, onChange, held }: Props) {
  const [walletFile, setWalletFile] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [said, setSaid] = useState<Said>(null);
  const saying = said && (!said.about || said.about === `${joint.status} ${held}`) ? said : null;
  const [busy, setBusy] = useState(false);
  const Step = `h${level}` as 'h4' | 'h5';
  const command = signCommand(walletFile, joint.transaction);
  const walletField = `wallet-file-${joint.id}`;
  const signedField = `signed-${joint.id}`;

  const send = async (transaction: string) => {
    setBusy(true);
    setProblem(null);
    setSaid({ text: 'Checking the signatures…' });
    try {
      const updated = await api<JointTransaction>(`${jointPath(joint.id)}/signatures`, {
        method: 'POST',
        body: { transaction },
        key: null,
      });
      setSaid(progress(updated, parties, held));
      onChange(updated);
      return true;
    } catch (error) {
      setSaid(null);
      setProblem(signaturesRefusal(error));
      return false;
    } finally {
      setBusy(false);
    }
  };

  const paste = async (event: Event) => {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const signed = String(new FormData(form).get(signedField) ?? '').replace(/\s+/g, '');
    setSaid(null);
    if (!signed) return setProblem('Paste the signed transaction that sign-transaction printed.');
    if (signed.toLowerCase() === joint.transaction.toLowerCase())
      return setProblem('That is the transaction before signing. Run the command above and paste what it prints.');
    if (!/^([0-9a-fA-F]{2})+$/.test(signed))
      return setProblem('That is not a transaction: paste the whole line of letters and digits that sign-transaction printed.');
    if (await send(signed)) form.reset();
  };

  return (
    <div class="joint">
      <JointSummary joint={joint} parties={parties} />
      {joint.status === 'collecting' && (
        <ol class="steps">
          <li>
            <Step>Sign it in a wallet</Step>
            <p>
              Each partner runs this on the computer that has their wallet file. It signs what that wallet can sign, prints the transaction,
              and sends nothing.
            </p>
            <Field
              label="Wallet file"
              name={walletField}
              autoComplete="off"
              spellcheck={false}
              placeholder="merchant.json"
              hint="The file pnpm wallet create made. Typed here, it goes into the command; it stays on this page."
              value={walletFile}
              onInput={(event) => setWalletFile((event.currentTarget as HTMLInputElement).value.trim())}
            />
            <p class="command">
              <code>
                pnpm wallet <span class="nowrap">--file</span> {walletFile ? shellWord(walletFile) : '<your wallet file>'}{' '}
                <span class="nowrap">sign-transaction</span> <span class="nowrap">--partial</span>
              </code>{' '}
              followed by the agreed transaction:
            </p>
            <label class="field">
              <span>Agreed transaction, unsigned (hex)</span>
              <textarea name={`unsigned-${joint.id}`} readOnly rows={3} spellcheck={false} value={joint.transaction} />
            </label>
            <p class="actions">
              <CopyButton text={command} label="Copy the command" copied="The command is copied: paste it where the wallet runs." />
              <CopyButton text={joint.transaction} label="Copy only the transaction" copied="The transaction is copied." secondary />
            </p>
          </li>
          <li>
            <Step>Paste what the wallet printed</Step>
            <form onSubmit={paste} noValidate>
              <label class="field">
                <span>Signed transaction (hex)</span>
                <textarea name={signedField} rows={3} spellcheck={false} autoComplete="off" aria-describedby={`${signedField}-hint`} />
                <small id={`${signedField}-hint`} class="hint">
                  The service checks each signature against the agreed transaction, and{' '}
                  {held
                    ? 'keeps it once every input is signed: this one goes to the chain later.'
                    : 'sends it to the chain once every input is signed.'}
                </small>
              </label>
              <button type="submit" disabled={busy}>
                Add the signatures
              </button>
            </form>
          </li>
        </ol>
      )}
      {joint.status === 'signed' && held && <p class="held">{held}</p>}
      {joint.status === 'signed' && !held && joint.signed_transaction && (
        <p class="actions">
          <span>Every signature is in, but the chain has not taken it yet.</span>
          <button type="button" class="secondary" disabled={busy} onClick={() => void send(joint.signed_transaction!)}>
            Send it to the chain again
          </button>
        </p>
      )}
      <Problem problem={problem} />
      <p class={`status${saying?.done ? ' done' : ''}`} role="status">
        {saying?.text ?? ''}
      </p>
    </div>
  );
}

/**
 * The signatures kept, in words: complete and on the chain, complete and held off it (why), complete and waiting
 * for the chain, or what is still needed.
 */
function progress(joint: JointTransaction, parties: Parties, held: string | undefined): Said {
  if (joint.status === 'broadcast')
    return { text: `Complete: every input is signed, and the transaction is on the chain as ${joint.txid}.`, done: true };
  if (joint.status === 'signed' && held)
    return { text: 'Complete: every input is signed, and the service keeps it.', done: true, about: `${joint.status} ${held}` };
  if (joint.status === 'signed') return { text: 'Every input is signed; the chain has not taken it yet. Send it again below.' };
  return { text: `The signatures are kept. Still needed: ${stillNeeded(parties, joint).join('; ')}.` };
}
