import { randomUUID } from 'node:crypto';
import type { SqlQueries } from '@ctk/shared';
import type { NewJournalEntry } from './new-journal-entry.js';

/**
 * Writes many entries, their lines and their items in one statement, so a batch costs one round trip:
 * the lines and items of an entry are written only if the entry was (ON CONFLICT on the unique event id
 * skips an event posted before, or by a racing consumer). One statement is one transaction: an entry is
 * written whole or not at all. Arrays go in as parameters (unnest), so the statement text never changes; each
 * value as text (numbers as their digits), which the statement casts. Sent without Prisma's client (decision
 * 0048). Returns the event ids that were posted now.
 */
const INSERT_ENTRIES = `
WITH new_entries AS (
  INSERT INTO journal_entries (id, organization_id, event_id, event_type, occurred_at, currency, description,
    source_service, source_id, txid, satoshis, exchange_rate, tax_jurisdiction, tax_rate, amount_minor, tax_minor,
    tip_minor, rate_source, source_reference)
  SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::text[], $4::text[], $5::timestamp(3)[], $6::text[], $7::text[],
    $8::text[], $9::text[], $10::text[], $11::bigint[], $12::text[], $13::text[], $14::text[], $15::bigint[], $16::bigint[],
    $17::bigint[], $18::text[], $19::text[])
  ON CONFLICT (event_id) DO NOTHING
  RETURNING id, event_id
), new_lines AS (
  INSERT INTO journal_lines (id, entry_id, line_no, account_id, debit_minor, credit_minor, memo)
  SELECT l.* FROM unnest($20::uuid[], $21::uuid[], $22::int[], $23::uuid[], $24::bigint[], $25::bigint[], $26::text[])
    AS l(id, entry_id, line_no, account_id, debit_minor, credit_minor, memo)
  WHERE l.entry_id IN (SELECT id FROM new_entries)
), new_items AS (
  INSERT INTO journal_entry_items (id, entry_id, organization_id, occurred_at, line_no, item_id, name, quantity,
    unit_price_minor, tax_minor, total_minor)
  SELECT i.* FROM unnest($27::uuid[], $28::uuid[], $29::uuid[], $30::timestamp(3)[], $31::int[], $32::text[], $33::text[],
    $34::bigint[], $35::bigint[], $36::bigint[], $37::bigint[])
    AS i(id, entry_id, organization_id, occurred_at, line_no, item_id, name, quantity, unit_price_minor, tax_minor, total_minor)
  WHERE i.entry_id IN (SELECT id FROM new_entries)
)
SELECT event_id FROM new_entries`;

export type EntryToInsert = { entry: NewJournalEntry; accountIds: ReadonlyMap<string, string> };

export async function insertEntries(db: SqlQueries, batch: readonly EntryToInsert[]): Promise<Set<string>> {
  const entries = columns(19);
  const lines = columns(7);
  const items = columns(11);
  for (const { entry, accountIds } of batch) {
    const id = randomUUID();
    const occurredAt = entry.occurredAt.toISOString();
    push(
      entries,
      id,
      entry.organizationId,
      entry.eventId,
      entry.eventType,
      occurredAt,
      entry.currency,
      entry.description,
      entry.sourceService,
      entry.sourceId,
      entry.txid,
      String(entry.satoshis),
      entry.exchangeRate,
      entry.taxJurisdiction,
      entry.taxRate,
      String(entry.amountMinor),
      String(entry.taxMinor),
      String(entry.tipMinor),
      entry.rateSource,
      entry.sourceReference,
    );
    entry.lines.forEach((line, lineNo) => {
      const accountId = accountIds.get(line.accountCode);
      if (!accountId) throw new Error(`Account ${line.accountCode} is not in the chart of accounts`);
      push(lines, randomUUID(), id, String(lineNo), accountId, String(line.debitMinor), String(line.creditMinor), line.memo);
    });
    entry.items.forEach((item, lineNo) => {
      push(
        items,
        randomUUID(),
        id,
        entry.organizationId,
        occurredAt,
        String(lineNo),
        item.itemId,
        item.name,
        String(item.quantity),
        String(item.unitPriceMinor),
        String(item.taxMinor),
        String(item.totalMinor),
      );
    });
  }
  const rows = await db.rows<{ eventId: string }>(INSERT_ENTRIES, [...entries, ...lines, ...items]);
  return new Set(rows.map((row) => row.eventId));
}

function columns(count: number): (string | null)[][] {
  return Array.from({ length: count }, () => []);
}

function push(target: (string | null)[][], ...values: (string | null)[]): void {
  values.forEach((value, i) => target[i]?.push(value));
}
