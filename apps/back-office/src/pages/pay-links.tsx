import { useEffect, useState } from 'preact/hooks';
import { api, type Page } from '../api.js';
import { describe, Field, Problem, useSubmit } from '../form.js';
import { formatDateTime, formatMoney, minorUnits } from '../format.js';

type Terms = {
  id: string;
  currency: string;
  amount_minor: number | null;
  min_minor: number | null;
  max_minor: number | null;
  memo: string;
  expires_at: string | null;
};
type PayLink = {
  terms: Terms;
  status: string;
  max_uses: number | null;
  uses_paid: number;
  created_at: string;
  page_url: string;
  qr_url: string;
};

/** `/o/:handle/pay-links`: links a payer opens to pay an amount (fixed, or theirs within bounds): made, listed with their uses, disabled, their QR to print. */
export function PayLinksPage({ handle }: { handle: string }) {
  const [links, setLinks] = useState<PayLink[]>([]);
  const [problem, setProblem] = useState<string | null>(null);
  const load = () =>
    api<Page<PayLink>>(`/api/v1/orgs/${handle}/pay-links?limit=100`).then(
      (page) => setLinks(page.data),
      (error) => setProblem(describe(error)),
    );
  useEffect(() => void load(), [handle]);
  const disable = async (link: PayLink) => {
    if (!window.confirm(`Disable "${link.terms.memo}"? It takes no new payments.`)) return;
    try {
      await api(`/api/v1/orgs/${handle}/pay-links/${link.terms.id}/disable`, { method: 'POST', body: {} });
      await load();
    } catch (error) {
      setProblem(describe(error));
    }
  };
  return (
    <>
      <h1>Pay links</h1>
      <NewPayLink handle={handle} onMade={load} />
      <section aria-labelledby="links">
        <h2 id="links">Your links</h2>
        <Problem problem={problem} />
        {links.length === 0 && <p>No links yet.</p>}
        <ul class="entries">
          {links.map((link) => (
            <li class="card" key={link.terms.id}>
              <h3>
                {link.terms.memo} <span class="tag">{link.status.replaceAll('_', ' ')}</span>
              </h3>
              <p>
                {amountOf(link.terms)} · paid {link.uses_paid}
                {link.max_uses ? ` of ${link.max_uses}` : ''} time{link.uses_paid === 1 ? '' : 's'}
                {link.terms.expires_at && ` · until ${formatDateTime(link.terms.expires_at)}`}
              </p>
              <p class="txid">
                <a href={link.page_url}>{link.page_url}</a>
              </p>
              <p class="actions">
                <a
                  class="button secondary"
                  href={`${link.qr_url}${link.qr_url.includes('?') ? '&' : '?'}format=svg`}
                  download={`pay-link-qr.svg`}
                >
                  QR to print
                </a>
                {link.status === 'active' && (
                  <button type="button" class="danger" onClick={() => disable(link)} aria-label={`Disable ${link.terms.memo}`}>
                    Disable
                  </button>
                )}
              </p>
            </li>
          ))}
        </ul>
      </section>
    </>
  );
}

function amountOf(terms: Terms): string {
  if (terms.amount_minor) return formatMoney(terms.amount_minor, terms.currency);
  return `${formatMoney(terms.min_minor ?? 0, terms.currency)} to ${formatMoney(terms.max_minor ?? 0, terms.currency)}, the payer's choice`;
}

function NewPayLink({ handle, onMade }: { handle: string; onMade: () => void }) {
  const { submit, busy, problem } = useSubmit(async (form) => {
    const text = (name: string) => String(form.get(name) ?? '').trim();
    const amount = text('amount');
    const uses = text('max_uses');
    const expires = text('expires');
    await api(`/api/v1/orgs/${handle}/pay-links`, {
      method: 'POST',
      body: {
        memo: text('memo'),
        currency: text('currency').toUpperCase(),
        ...(amount ? { amount_minor: minorUnits(amount) } : { min_minor: minorUnits(text('min')), max_minor: minorUnits(text('max')) }),
        ...(uses ? { max_uses: Number(uses) } : {}),
        // The end of the chosen day, in the reader's time zone.
        ...(expires ? { expires_at: new Date(`${expires}T23:59:59`).toISOString() } : {}),
      },
    });
    (document.getElementById('new-pay-link') as HTMLFormElement | null)?.reset();
    onMade();
  });
  return (
    <section class="card" aria-labelledby="new-link">
      <h2 id="new-link">Make a link</h2>
      <form id="new-pay-link" onSubmit={submit} noValidate>
        <Field
          label="What it is for"
          name="memo"
          required
          maxLength={200}
          autoComplete="off"
          hint="The payer sees it, e.g. Invoice 1042."
        />
        <Field label="Currency" name="currency" required defaultValue="USD" maxLength={3} autoComplete="off" />
        <Field
          label="Amount"
          name="amount"
          inputMode="decimal"
          placeholder="185.00"
          autoComplete="off"
          hint="Or leave it empty and give bounds for the payer to choose."
        />
        <div class="range">
          <Field label="At least" name="min" inputMode="decimal" autoComplete="off" />
          <Field label="At most" name="max" inputMode="decimal" autoComplete="off" />
        </div>
        <div class="range">
          <Field label="Payments it takes" name="max_uses" type="number" min={1} autoComplete="off" hint="Empty: no limit." />
          <Field label="Until" name="expires" type="date" hint="Empty: no end." />
        </div>
        <Problem problem={problem} />
        <button type="submit" disabled={busy}>
          Make the link
        </button>
      </form>
    </section>
  );
}
