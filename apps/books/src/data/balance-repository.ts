import type { RawQueryable } from './raw-queryable.js';
import { unknownTimeZone } from './report-repository.js';

export type BalanceRepository = ReturnType<typeof createBalanceRepository>;
export type PostedToAccount = { currency: string; code: string; name: string; type: string; debits: bigint; credits: bigint };

/** A local date and its time zone (parameters $n and $n+1): the UTC instant its next day begins, as occurred_at holds it. */
const endOfDay = (n: number) => `(($${n}::date + 1)::timestamp AT TIME ZONE $${n + 1}) AT TIME ZONE 'UTC'`;

/**
 * What was posted to each account of the organisation's chart before the end of the date, per currency
 * it has entries in by then; an account without entries in a currency shows zeros.
 */
const POSTED_SQL = `
WITH posted AS (
  SELECT e.currency, l.account_id, sum(l.debit_minor) AS debits, sum(l.credit_minor) AS credits
  FROM journal_entries e JOIN journal_lines l ON l.entry_id = e.id
  WHERE e.organization_id = $1::uuid AND e.occurred_at < ${endOfDay(2)}
  GROUP BY 1, 2
)
SELECT c.currency, a.code, a.name, a.type::text AS type, coalesce(p.debits, 0)::bigint AS debits, coalesce(p.credits, 0)::bigint AS credits
FROM accounts a CROSS JOIN (SELECT DISTINCT currency FROM posted) c
LEFT JOIN posted p ON p.account_id = a.id AND p.currency = c.currency
WHERE a.organization_id = $1::uuid
ORDER BY c.currency, a.code`;

/** Account balances from the journal, by local date. */
export function createBalanceRepository(db: RawQueryable) {
  return {
    async postedBefore(organizationId: string, at: string, timeZone: string): Promise<{ endsBefore: Date; rows: PostedToAccount[] }> {
      // In milliseconds since 1970, not as a timestamp: the end of 9999-12-31 is in year 10000, which a
      // driver's timestamp parser does not read but a Date holds.
      const [bound] = await Promise.resolve(
        db.$queryRawUnsafe<Array<{ hiMs: bigint }>>(`SELECT (extract(epoch FROM ${endOfDay(1)}) * 1000)::bigint AS "hiMs"`, at, timeZone),
      ).catch(unknownTimeZone);
      const rows = await db.$queryRawUnsafe<PostedToAccount[]>(POSTED_SQL, organizationId, at, timeZone);
      return { endsBefore: new Date(Number(bound!.hiMs)), rows };
    },
  };
}
