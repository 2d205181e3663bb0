import type { CursorPosition } from '@ctk/shared';
import type { AccountSpec } from '../domain/chart-of-accounts.js';
import type { PrismaClient } from '../generated/prisma/client.js';
import { accountIdsByCode } from './chart-repository.js';
import { groupCommit } from './group-commit.js';
import { insertEntries } from './insert-entries.js';
import type { NewJournalEntry } from './new-journal-entry.js';

export type DateRange = { from?: Date | undefined; to?: Date | undefined };
export type JournalRepository = ReturnType<typeof createJournalRepository>;
export type ListedEntry = Awaited<ReturnType<JournalRepository['list']>>[number];
type PostOutcome = 'posted' | 'duplicate';

/** Entries written in one statement at most; a burst of deliveries is written in batches of this size. */
const MAX_BATCH = 200;

export function createJournalRepository(prisma: PrismaClient) {
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
      const posted = await insertEntries(prisma, firsts);
      return entries.map((item) => (firsts.includes(item) && posted.has(item.entry.eventId) ? 'posted' : 'duplicate'));
    } catch (error) {
      if (batch.length === 1) return [error instanceof Error ? error : new Error(String(error))];
      return Promise.all(batch.map(async (one) => (await writeBatch([one]))[0] as PostOutcome | Error));
    }
  }
  const submit = groupCommit(writeBatch, MAX_BATCH);

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

    /** Oldest first, ties broken by id, within the range, starting after `after` when given. */
    list(organizationId: string, range: DateRange, take: number, after?: CursorPosition) {
      const afterWhere = after && {
        OR: [{ occurredAt: { gt: after.at } }, { occurredAt: after.at, id: { gt: after.id } }],
      };
      return prisma.journalEntry.findMany({
        where: { AND: [{ organizationId, occurredAt: { gte: range.from, lt: range.to } }, afterWhere ?? {}] },
        orderBy: [{ occurredAt: 'asc' }, { id: 'asc' }],
        take,
        include: { lines: { orderBy: { lineNo: 'asc' }, include: { account: { select: { code: true, name: true, type: true } } } } },
      });
    },

    async hasAny(organizationId: string): Promise<boolean> {
      return (await prisma.journalEntry.findFirst({ where: { organizationId }, select: { id: true } })) !== null;
    },
  };
}
