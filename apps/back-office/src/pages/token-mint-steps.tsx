import { useEffect, useState } from 'preact/hooks';
import { api } from '../api.js';
import { Field, Problem } from '../form.js';
import { broadcastRefusal, confirmRefusal } from '../token-refusals.js';
import { amountText, shellWord, type Token } from '../tokens.js';
import { CopyButton } from '../copy-button.js';
import { faceValueText } from '../credits.js';

type Props = { handle: string; token: Token; onActive: (token: Token) => void; onClose: () => void };

/** Where the mint stands, said in the status region as it changes. */
type Stage = { text: string; done?: boolean } | null;

/**
 * A drafted mint, finished step by step in the merchant's own wallet: the exact `pnpm wallet sign-transaction`
 * command with the unsigned transaction (copied whole), then the signed hex pasted here, which the page
 * broadcasts (`POST /api/v1/wallet/broadcast`) and confirms with the txid it answers (`POST .../deployed`); a
 * mint broadcast some other way is confirmed by its txid. The service never sees a key: only what the
 * wallet printed. Each refusal says what to paste instead.
 */
export function TokenMintSteps({ handle, token, onActive, onClose }: Props) {
  const draft = token.draft!;
  const [walletFile, setWalletFile] = useState('');
  const [stage, setStage] = useState<Stage>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [txid, setTxid] = useState('');
  const [busy, setBusy] = useState(false);
  const [active, setActive] = useState<Token | null>(null);
  const command = `pnpm wallet --file ${walletFile ? shellWord(walletFile) : '<your wallet file>'} sign-transaction ${draft.transaction}`;
  // The heading takes the focus when the steps open: a screen reader starts at what to do next.
  useEffect(() => document.getElementById('finish')?.focus(), [token.id]);

  const confirm = async (minted: string) => {
    setStage({ text: 'Checking the mint on the chain…' });
    try {
      const confirmed = await api<Token>(`/api/v1/orgs/${encodeURIComponent(handle)}/tokens/${encodeURIComponent(token.id)}/deployed`, {
        method: 'POST',
        body: { txid: minted },
      });
      setActive(confirmed);
      setStage({ text: `${confirmed.symbol} is minted and active. Your wallet holds all ${supplyText(confirmed)}.`, done: true });
      onActive(confirmed);
    } catch (error) {
      setStage(null);
      setProblem(confirmRefusal(error, token));
    }
  };

  /** A step's form sent: one at a time, its problem cleared first. */
  const run = (action: (form: HTMLFormElement) => Promise<void>) => async (event: Event) => {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    setProblem(null);
    setBusy(true);
    try {
      await action(form);
    } finally {
      setBusy(false);
    }
  };

  const sendSigned = run(async (form) => {
    const signed = String(new FormData(form).get('signed') ?? '').replace(/\s+/g, '');
    if (!signed) return setProblem('Paste the signed transaction that sign-transaction printed.');
    if (signed.toLowerCase() === draft.transaction.toLowerCase())
      return setProblem('That is the transaction before signing. Run the command in step 1 and paste what it prints.');
    if (!/^([0-9a-fA-F]{2})+$/.test(signed))
      return setProblem('That is not a transaction: paste the whole line of letters and digits that sign-transaction printed.');
    setStage({ text: 'Sending the signed mint to the chain…' });
    let sent: { txid: string };
    try {
      sent = await api<{ txid: string }>('/api/v1/wallet/broadcast', { method: 'POST', body: { transaction: signed } });
    } catch (error) {
      setStage(null);
      return setProblem(broadcastRefusal(error));
    }
    // Kept in the txid field: a confirm that fails after the broadcast is tried again from there.
    setTxid(sent.txid);
    await confirm(sent.txid);
  });

  const confirmTxid = run(async () => {
    const typed = txid.trim().toLowerCase();
    if (!/^[0-9a-f]{64}$/.test(typed)) return setProblem('A transaction id is 64 letters (a to f) and digits: paste it whole.');
    await confirm(typed);
  });

  return (
    <section class="card mint-steps" aria-labelledby="finish">
      <h2 id="finish" tabIndex={-1}>
        Finish minting {token.symbol} in your wallet
      </h2>
      <dl class="facts">
        <dt>Mints</dt>
        <dd>{supplyText(token)}</dd>
        <dt>To your wallet's address</dt>
        <dd class="address">
          <code>{token.owner_address}</code>
          {token.owner_derivation_path && <small class="muted"> ({token.owner_derivation_path})</small>}
        </dd>
        {token.kind === 'credits' && faceValueText(token) && (
          <>
            <dt>Face value</dt>
            <dd>{faceValueText(token)}</dd>
          </>
        )}
        <dt>Fee from your coins</dt>
        <dd>{draft.fee_satoshis} satoshis</dd>
      </dl>
      <ol class="steps">
        <li>
          <h3>Sign it in your wallet</h3>
          <p>On the computer that has your wallet file, run this command: it signs and prints the mint, and sends nothing.</p>
          <Field
            label="Your wallet file"
            name="wallet-file"
            autoComplete="off"
            spellcheck={false}
            placeholder="merchant.json"
            hint="The file pnpm wallet create made. Typed here, it goes into the command; it stays on this page."
            value={walletFile}
            onInput={(event) => setWalletFile((event.currentTarget as HTMLInputElement).value.trim())}
          />
          <p class="command">
            <code>pnpm wallet --file {walletFile ? shellWord(walletFile) : '<your wallet file>'} sign-transaction</code> followed by the
            unsigned transaction:
          </p>
          <label class="field">
            <span>Unsigned transaction (hex)</span>
            <textarea name="unsigned" readOnly rows={4} spellcheck={false} value={draft.transaction} />
          </label>
          <p class="actions">
            <CopyButton text={command} label="Copy the command" copied="The command is copied: paste it where your wallet runs." />
            <CopyButton text={draft.transaction} label="Copy only the transaction" copied="The unsigned transaction is copied." secondary />
          </p>
        </li>
        <li>
          <h3>Paste what your wallet printed</h3>
          <form onSubmit={sendSigned} noValidate>
            <label class="field">
              <span>Signed transaction (hex)</span>
              <textarea name="signed" rows={4} spellcheck={false} autoComplete="off" aria-describedby="signed-hint" />
              <small id="signed-hint" class="hint">
                This page sends it to the chain and confirms the mint.
              </small>
            </label>
            <button type="submit" disabled={busy || Boolean(active)}>
              Send it and confirm the mint
            </button>
          </form>
          <details>
            <summary>Sent it another way? Confirm it by its transaction id</summary>
            <form onSubmit={confirmTxid} noValidate>
              <Field
                label="Transaction id"
                name="txid"
                autoComplete="off"
                spellcheck={false}
                maxLength={64}
                hint="The id your wallet or the broadcast showed: 64 letters and digits."
                value={txid}
                onInput={(event) => setTxid((event.currentTarget as HTMLInputElement).value)}
              />
              <button type="submit" class="secondary" disabled={busy || Boolean(active)}>
                Confirm the mint
              </button>
            </form>
          </details>
          <Problem problem={problem} />
        </li>
        <li>
          <h3>See it active</h3>
          <p class={`status${stage?.done ? ' done' : ''}`} role="status" aria-live="polite">
            {stage?.text ?? 'Waiting for the signed mint: nothing is on the chain yet.'}
          </p>
          {active && (
            <p class="txid">
              Token id <code>{active.token_id}</code>
            </p>
          )}
        </li>
      </ol>
      <p>
        <button type="button" class="secondary" onClick={onClose}>
          {active ? 'Done' : 'Finish it later'}
        </button>
      </p>
    </section>
  );
}

function supplyText(token: Token): string {
  return amountText(token.supply, token.decimals, token.symbol);
}
