// The end of a fault run: every payment the API accepted, looked up in its merchant's books through the
// ledger API. Lost: no entry for it; doubled: more than one. And each merchant's trial balance.
import { call, retried, type Accepted, type Bench, type Json } from './path.js';

type Entry = { event_type: string; txid?: string; source_id?: string };

/** Every journal entry of an organisation, oldest first, through GET /api/v1/orgs/:handle/ledger, a page of 100 at a time. */
async function ledgerOf(bench: Bench, org: string, key: string): Promise<Entry[]> {
  const entries: Entry[] = [];
  let cursor = '';
  do {
    const page: Json = await retried('the ledger', () =>
      call(
        'the ledger',
        'GET',
        `${bench.base}/api/v1/orgs/${org}/ledger?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
        undefined,
        {
          authorization: `Bearer ${key}`,
        },
      ),
    );
    entries.push(...page.data);
    cursor = page.next_cursor ?? '';
  } while (cursor);
  return entries;
}

const keyOf = (eventType: string, by: string, value: string) => `${eventType} ${by}:${value}`;

export type BooksVerdict = {
  lost: Accepted[];
  doubled: Accepted[];
  /** Entries no accepted payment accounts for (a payment the API took but whose answer its client never read). */
  unclaimed: number;
  trialBalances: Array<{ org: string; currency: string; debit: number; credit: number }>;
};

/** Looks each accepted payment up in its organisation's books (by txid when it has one, else by source id). */
export async function checkBooks(bench: Bench, accepted: Accepted[]): Promise<BooksVerdict> {
  const orgs = new Map<string, string>();
  for (const payment of accepted) orgs.set(payment.org, payment.key);
  const counts = new Map<string, number>();
  let entries = 0;
  const trialBalances: BooksVerdict['trialBalances'] = [];
  for (const [org, key] of orgs) {
    for (const entry of await ledgerOf(bench, org, key)) {
      entries++;
      for (const [by, value] of [
        ['txid', entry.txid],
        ['source', entry.source_id],
      ] as const)
        if (value)
          counts.set(`${org} ${keyOf(entry.event_type, by, value)}`, (counts.get(`${org} ${keyOf(entry.event_type, by, value)}`) ?? 0) + 1);
    }
    const trial: Json = await retried('the trial balance', () =>
      call('the trial balance', 'GET', `${bench.base}/api/v1/orgs/${org}/reports/trial-balance`, undefined, {
        authorization: `Bearer ${key}`,
      }),
    );
    for (const row of trial.data)
      trialBalances.push({ org, currency: row.currency, debit: Number(row.total_debit_minor), credit: Number(row.total_credit_minor) });
  }
  const lost: Accepted[] = [];
  const doubled: Accepted[] = [];
  for (const payment of accepted) {
    const found = payment.txid
      ? (counts.get(`${payment.org} ${keyOf(payment.eventType, 'txid', payment.txid)}`) ?? 0)
      : (counts.get(`${payment.org} ${keyOf(payment.eventType, 'source', payment.sourceId ?? '')}`) ?? 0);
    if (found === 0) lost.push(payment);
    else if (found > 1) doubled.push(payment);
  }
  return { lost, doubled, unclaimed: entries - accepted.length + doubled.length, trialBalances };
}
