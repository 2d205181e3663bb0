import { groupCommit, type CursorPosition, type SqlQueries } from '@ctk/shared';
import type { AccountSpec } from '../domain/chart-of-accounts.js';
import type { PrismaClient } from '../generated/prisma/client.js';
import { accountIdsByCode } from './chart-repository.js';
import { insertEntries } from './insert-entries.js';
import type { NewJournalEntry } from './new-journal-entry.js';

/** Entries that occurred in [from, to) (either end open when undefined) and, with postedBy, were posted by then. */
export type DateRange = { from?: Date | undefined; to?: Date | undefined; postedBy?: Date | undefined };
/** An account the range's entries post to, in one currency, with the entry that first did (oldest, then by id). */
export type AccountInCurrency = { code: string; name: string; type: string; currency: string; firstAt: Date; firstId: string };
export type RangeSummary = { entries: number; firstAt: Date | null; postedBy: Date; accounts: AccountInCurrency[] };
type SummaryRow = { entries: bigint; firstAt: Date | null; postedBy: Date; accountFirstAt: Date } & (
  Omit<AccountInCurrency, 'firstAt'> | { code: null; name: null; type: null; currency: null; firstId: null }
);
export type JournalRepository = ReturnType<typeof createJournalRepository>;
/** An entry as read back: what the journal answers and the exports write. */
export type ListedEntry = {
  id: string;
  eventId: string;
  eventType: string;
  occurredAt: Date;
  postedAt: Date;
  currency: string;
  description: string;
  sourceService: string;
  sourceId: string;
  sourceReference: string;
  txid: string | null;
  satoshis: bigint;
  exchangeRate: string;
  rateSource: string;
  taxJurisdiction: string | null;
  taxRate: string | null;
  lines: Array<{ account: { code: string; name: string; type: string }; debitMinor: bigint; creditMinor: bigint; memo: string | null }>;
};
/**
 * An entry as LIST_SQL writes it into the page's JSON: a tuple, times as epoch milliseconds, amounts as
 * text (exact past 2^53), and the lines as [code, name, type, debit, credit, memo] tuples.
 */
type EntryTuple = [
  id: string,
  eventId: string,
  eventType: string,
  occurredAt: number,
  postedAt: number,
  currency: string,
  description: string,
  sourceService: string,
  sourceId: string,
  txid: string | null,
  satoshis: string,
  exchangeRate: string,
  rateSource: string,
  taxJurisdiction: string | null,
  taxRate: string | null,
  lines: LineTuple[] | null,
  sourceReference: string,
];
type LineTuple = [code: string, name: string, type: string, debit: string, credit: string, memo: string | null];

/**
 * The organisation's ($1) entries that occurred from $2 up to $3 and were posted by $4 (ISO instants;
 * NULL leaves a bound open), after the cursor ($5 occurred_at, $6 id) when given, oldest first, $7 of them,
 * as one JSON text: one value per page instead of a row of 17 values per entry, each of which Prisma's raw
 * query path converts and copies several times (an export of 50,000 entries made ~85 MiB of garbage that
 * way, which V8 promoted to its old space faster than it collected it; decision 0014).
 */
const LIST_SQL = `
SELECT coalesce(json_agg(p.entry ORDER BY p.occurred_at, p.id), '[]')::text AS page
FROM (
  SELECT e.occurred_at, e.id, json_build_array(e.id::text, e.event_id, e.event_type,
      (extract(epoch FROM e.occurred_at) * 1000)::bigint, (extract(epoch FROM e.posted_at) * 1000)::bigint,
      e.currency::text, e.description, e.source_service, e.source_id, e.txid, e.satoshis::text, e.exchange_rate,
      e.rate_source, e.tax_jurisdiction, e.tax_rate,
      (SELECT json_agg(json_build_array(a.code, a.name, a.type::text, l.debit_minor::text, l.credit_minor::text, l.memo) ORDER BY l.line_no)
         FROM journal_lines l JOIN accounts a ON a.id = l.account_id WHERE l.entry_id = e.id),
      e.source_reference) AS entry
  FROM journal_entries e
  WHERE e.organization_id = $1::uuid
    AND ($2::text IS NULL OR e.occurred_at >= ($2::timestamptz AT TIME ZONE 'UTC'))
    AND ($3::text IS NULL OR e.occurred_at < ($3::timestamptz AT TIME ZONE 'UTC'))
    AND ($4::text IS NULL OR e.posted_at <= ($4::timestamptz AT TIME ZONE 'UTC'))
    AND ($5::text IS NULL OR (e.occurred_at, e.id) > (($5::timestamptz AT TIME ZONE 'UTC'), $6::uuid))
  ORDER BY e.occurred_at, e.id
  LIMIT $7
) p`;

function listedEntry(tuple: EntryTuple): ListedEntry {
  const [id, eventId, eventType, occurredAt, postedAt, currency, description, sourceService, sourceId, txid, satoshis] = tuple;
  const [exchangeRate, rateSource, taxJurisdiction, taxRate, lines, sourceReference] = tuple.slice(11) as [
    string,
    string,
    string | null,
    string | null,
    LineTuple[] | null,
    string,
  ];
  return {
    id,
    eventId,
    eventType,
    occurredAt: new Date(occurredAt),
    postedAt: new Date(postedAt),
    currency,
    description,
    sourceService,
    sourceId,
    sourceReference,
    txid,
    satoshis: BigInt(satoshis),
    exchangeRate,
    rateSource,
    taxJurisdiction,
    taxRate,
    lines: (lines ?? []).map(([code, name, type, debit, credit, memo]) => ({
      account: { code, name, type },
      debitMinor: BigInt(debit),
      creditMinor: BigInt(credit),
      memo,
    })),
  };
}
type PostOutcome = 'posted' | 'duplicate';

/**
 * The organisation's ($1) entries that occurred from $2 up to $3 (ISO instants; NULL leaves an end open)
 * and were posted by the database's clock now (to posted_at's millisecond): their count and first time,
 * and one row per account and currency with the entry that first posted to it (none for no entries).
 */
const SUMMARY_SQL = `
WITH clock AS (
  SELECT date_trunc('milliseconds', localtimestamp) AS posted_by
), in_range AS (
  SELECT e.id, e.occurred_at, e.currency FROM journal_entries e
  WHERE e.organization_id = $1::uuid
    AND ($2::text IS NULL OR e.occurred_at >= ($2::timestamptz AT TIME ZONE 'UTC'))
    AND ($3::text IS NULL OR e.occurred_at < ($3::timestamptz AT TIME ZONE 'UTC'))
    AND e.posted_at <= (SELECT posted_by FROM clock)
), totals AS (
  SELECT count(*) AS entries, min(occurred_at) AS first_at FROM in_range
), firsts AS (
  SELECT DISTINCT ON (a.code, e.currency) a.code, a.name, a.type::text AS type, e.currency, e.occurred_at, e.id::text AS id
  FROM in_range e JOIN journal_lines l ON l.entry_id = e.id JOIN accounts a ON a.id = l.account_id
  ORDER BY a.code, e.currency, e.occurred_at, e.id
)
SELECT t.entries, t.first_at AS "firstAt", (SELECT posted_by FROM clock) AS "postedBy",
  f.code, f.name, f.type, f.currency, f.occurred_at AS "accountFirstAt", f.id AS "firstId"
FROM totals t LEFT JOIN firsts f ON true`;

/** Entries written in one statement at most; a burst of deliveries is written in batches of this size. */
const MAX_BATCH = 200;

/** The journal over Prisma's client, and `sql` (the same database) for the batch insert of entries (decision 0048). */
export function createJournalRepository(prisma: PrismaClient, sql: SqlQueries) {
  const hasEvent = async (eventId: string): Promise<boolean> =>
    (await prisma.journalEntry.findUnique({ where: { eventId }, select: { id: true } })) !== null;

  // Accounts are never deleted, so once an organisation's chart is committed its ids can be remembered.
  const charts = new Map<string, Map<string, string>>();
  async function chartOf(organizationId: string, chart: readonly AccountSpec[]): Promise<Map<string, string>> {
    const known = charts.get(organizationId);
    if (known) return known;
    const accountIds = await accountIdsByCode(prisma, organizationId, chart);
    if (charts.size >= 10_000) charts.clear();
    charts.set(organizationId, accountIds);
    return accountIds;
  }

  /** One statement for the whole batch; if it fails, each entry alone, so one bad entry fails only itself. */
  async function writeBatch(batch: Array<{ entry: NewJournalEntry; chart: readonly AccountSpec[] }>): Promise<Array<PostOutcome | Error>> {
    const chartByOrganization = new Map(batch.map(({ entry, chart }) => [entry.organizationId, chart]));
    const accountIds = new Map(
      await Promise.all([...chartByOrganization].map(async ([id, chart]) => [id, await chartOf(id, chart)] as const)),
    );
    const entries = batch.map(({ entry }) => ({ entry, accountIds: accountIds.get(entry.organizationId) ?? new Map<string, string>() }));
    // The same event twice in one batch: the first posts, the others are its duplicates.
    const seen = new Set<string>();
    const firsts = entries.filter(({ entry }) => !seen.has(entry.eventId) && Boolean(seen.add(entry.eventId)));
    try {
      const posted = await insertEntries(sql, firsts);
      return entries.map((item) => (firsts.includes(item) && posted.has(item.entry.eventId) ? 'posted' : 'duplicate'));
    } catch (error) {
      if (batch.length === 1) return [error instanceof Error ? error : new Error(String(error))];
      return Promise.all(batch.map(async (one) => (await writeBatch([one]))[0] as PostOutcome | Error));
    }
  }
  const submit = groupCommit(writeBatch, { maxBatch: MAX_BATCH, spanName: 'books.journal.write' });

  return {
    hasEvent,

    /**
     * Writes the entry, its lines, its items and its event id at once (in a batch with whatever else is
     * being posted), creating the organisation's chart first if it has none. The unique event id makes a
     * second posting of the same event, even one racing this, a no-op: 'duplicate'.
     */
    async post(entry: NewJournalEntry, chart: readonly AccountSpec[]): Promise<PostOutcome> {
      const outcome = await submit({ entry, chart });
      if (outcome instanceof Error) throw outcome;
      return outcome;
    },

    /**
     * Oldest first, ties broken by id, within the range, starting after `after` when given: one statement
     * with each entry's lines aggregated beside it, so a page costs one round trip and few objects (an
     * export reads 50,000 entries this way without the process growing).
     */
    async list(organizationId: string, range: DateRange, take: number, after?: CursorPosition): Promise<ListedEntry[]> {
      const [row] = await prisma.$queryRawUnsafe<Array<{ page: string }>>(
        LIST_SQL,
        organizationId,
        range.from?.toISOString() ?? null,
        range.to?.toISOString() ?? null,
        range.postedBy?.toISOString() ?? null,
        after?.at.toISOString() ?? null,
        after?.id ?? null,
        take,
      );
      return (JSON.parse(row?.page ?? '[]') as EntryTuple[]).map(listedEntry);
    },

    /**
     * What the range holds, read in one statement: the number of entries, the first one's time, and
     * each account and currency its lines post to, with the entry that did first. `postedBy` is the
     * database's clock as it read them (to the millisecond posted_at keeps): reading the entries
     * afterwards with it leaves out what was posted since.
     */
    async summarize(organizationId: string, range: DateRange): Promise<RangeSummary> {
      const rows = await prisma.$queryRawUnsafe<SummaryRow[]>(
        SUMMARY_SQL,
        organizationId,
        range.from?.toISOString() ?? null,
        range.to?.toISOString() ?? null,
      );
      const [first] = rows;
      return {
        entries: Number(first?.entries ?? 0),
        firstAt: first?.firstAt ?? null,
        postedBy: first!.postedBy,
        accounts: rows.flatMap(({ code, name, type, currency, accountFirstAt, firstId }) =>
          code === null ? [] : [{ code, name, type, currency, firstAt: accountFirstAt, firstId }],
        ),
      };
    },

    async hasAny(organizationId: string): Promise<boolean> {
      return (await prisma.journalEntry.findFirst({ where: { organizationId }, select: { id: true } })) !== null;
    },
  };
}
