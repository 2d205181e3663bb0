import { useEffect, useState } from 'preact/hooks';
import { api, ApiError, type Page } from '../api.js';
import { DateRange } from '../date-range.js';
import { DebitsAndCredits } from '../debits-and-credits.js';
import { describe, Problem } from '../form.js';
import { dateDaysAgo, formatDateTime } from '../format.js';
import { session } from '../session.js';

type Line = { account_code: string; account_name: string; debit_minor: number; credit_minor: number };
type Entry = {
  id: string;
  occurred_at: string;
  currency: string;
  description: string;
  txid: string | null;
  event_type: string;
  lines: Line[];
};

/** The five exports an accountant imports, each the whole range. */
const EXPORTS = [
  ['csv', 'CSV'],
  ['quickbooks', 'QuickBooks'],
  ['xero', 'Xero'],
  ['hledger', 'hledger'],
  ['beancount', 'Beancount'],
] as const;

/** `/o/:handle/ledger`: the journal between two dates (UTC), newest first, each entry's lines, and its exports. */
export function LedgerPage({ handle }: { handle: string }) {
  const [from, setFrom] = useState(dateDaysAgo(30, 'UTC'));
  const [to, setTo] = useState(dateDaysAgo(0, 'UTC'));
  const [entries, setEntries] = useState<Entry[]>([]);
  const [cursor, setCursor] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const path = (extra: string) => `/api/v1/orgs/${handle}/ledger?from=${from}&to=${to}${extra}`;
  const load = (after: string | null) =>
    api<Page<Entry>>(path(`&limit=50${after ? `&cursor=${encodeURIComponent(after)}` : ''}`)).then(
      (page) => {
        setEntries((shown) => (after ? [...shown, ...page.data] : page.data));
        setCursor(page.next_cursor);
        setProblem(null);
      },
      (error) => setProblem(describe(error)),
    );
  useEffect(() => void load(null), [handle, from, to]);

  const download = async (format: string) => {
    setProblem(null);
    try {
      const response = await fetch(path(`&format=${format}`), { headers: { authorization: `Bearer ${session.key()}` } });
      if (!response.ok)
        throw new ApiError(response.status, 'export', ((await response.json()) as { error: { message: string } }).error.message);
      const name = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? `${handle}-ledger.${format}`;
      const url = URL.createObjectURL(await response.blob());
      const link = Object.assign(document.createElement('a'), { href: url, download: name });
      link.click();
      setTimeout(() => URL.revokeObjectURL(url), 1_000);
    } catch (error) {
      setProblem(describe(error));
    }
  };

  return (
    <>
      <h1>Ledger</h1>
      <section class="card" aria-labelledby="range">
        <h2 id="range">Dates (UTC)</h2>
        <DateRange from={from} to={to} onFrom={setFrom} onTo={setTo} />
        <h3>Download for your accountant</h3>
        <p class="actions">
          {EXPORTS.map(([format, label]) => (
            <button type="button" class="secondary" key={format} onClick={() => download(format)}>
              {label}
            </button>
          ))}
        </p>
        <Problem problem={problem} />
      </section>
      <section aria-labelledby="entries">
        <h2 id="entries">Journal entries</h2>
        {entries.length === 0 && !problem && <p>No entries in these dates: each paid order becomes one.</p>}
        <ul class="entries">
          {entries.map((entry) => (
            <li class="card" key={entry.id}>
              <h3>
                {entry.description} <span class="muted">{formatDateTime(entry.occurred_at)}</span>
              </h3>
              {entry.txid && (
                <p class="muted txid">
                  Transaction <code>{entry.txid}</code>
                </p>
              )}
              <DebitsAndCredits
                caption="Lines of the entry"
                currency={entry.currency}
                rows={entry.lines.map((line) => ({ ...line, code: line.account_code, name: line.account_name }))}
              />
            </li>
          ))}
        </ul>
        {cursor && (
          <button type="button" class="secondary" onClick={() => load(cursor)}>
            Show older entries
          </button>
        )}
      </section>
    </>
  );
}
