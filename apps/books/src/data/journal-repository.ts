import type { CursorPosition } from '@ctk/shared';
import type { AccountSpec } from '../domain/chart-of-accounts.js';
import type { JournalEntry, PrismaClient } from '../generated/prisma/client.js';
import { accountIdsByCode } from './chart-repository.js';
import { isUniqueViolation } from './unique-violation.js';

export type NewJournalLine = { accountCode: string; debitMinor: bigint; creditMinor: bigint; memo: string | null };
export type NewJournalEntry = Pick<JournalEntry,
  'organizationId' | 'eventId' | 'eventType' | 'occurredAt' | 'currency' | 'description' | 'sourceService' | 'sourceId'
  | 'txid' | 'satoshis' | 'exchangeRate' | 'taxJurisdiction' | 'taxRate'> & { lines: NewJournalLine[] };
export type DateRange = { from?: Date | undefined; to?: Date | undefined };
export type JournalRepository = ReturnType<typeof createJournalRepository>;
export type ListedEntry = Awaited<ReturnType<JournalRepository['list']>>[number];

// A burst of deliveries queues on the pool (and on PGlite's single connection): let them wait their turn.
const TRANSACTION_OPTIONS = { maxWait: 10_000, timeout: 10_000 };

export function createJournalRepository(prisma: PrismaClient) {
  const hasEvent = async (eventId: string): Promise<boolean> =>
    (await prisma.journalEntry.findUnique({ where: { eventId }, select: { id: true } })) !== null;

  // Accounts are never deleted, so once an organisation's chart is committed its ids can be remembered.
  const charts = new Map<string, Map<string, string>>();

  return {
    hasEvent,

    /**
     * Writes the entry, its lines and its event id in one transaction, creating the chart first if the
     * organisation has none. The unique event id makes a second posting of the same event, even one
     * racing this, a no-op: 'duplicate'.
     */
    async post(entry: NewJournalEntry, chart: readonly AccountSpec[]): Promise<'posted' | 'duplicate'> {
      const { lines, ...fields } = entry;
      const known = charts.get(entry.organizationId);
      try {
        const accountIds = await prisma.$transaction(async (tx) => {
          const accountIds = known ?? (await accountIdsByCode(tx, entry.organizationId, chart));
          await tx.journalEntry.create({
            data: {
              ...fields,
              lines: {
                create: lines.map(({ accountCode, ...line }, lineNo) => ({ ...line, lineNo, accountId: accountIdOf(accountIds, accountCode) })),
              },
            },
          });
          return accountIds;
        }, TRANSACTION_OPTIONS);
        if (!known) {
          if (charts.size >= 10_000) charts.clear();
          charts.set(entry.organizationId, accountIds);
        }
        return 'posted';
      } catch (error) {
        if (isUniqueViolation(error) && (await hasEvent(entry.eventId))) return 'duplicate';
        throw error;
      }
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

function accountIdOf(accountIds: Map<string, string>, code: string): string {
  const id = accountIds.get(code);
  if (!id) throw new Error(`Account ${code} is not in the chart of accounts`);
  return id;
}
