import type { JournalEntry, JournalEntryItem } from '../generated/prisma/client.js';

/** An entry as posting builds it (domain/build-journal-entry.ts) and the journal writes it (insert-entries.ts). */
export type NewJournalLine = { accountCode: string; debitMinor: bigint; creditMinor: bigint; memo: string | null };
export type NewJournalItem = Pick<JournalEntryItem, 'itemId' | 'name' | 'quantity' | 'unitPriceMinor' | 'taxMinor' | 'totalMinor'>;
export type NewJournalEntry = Pick<
  JournalEntry,
  | 'organizationId'
  | 'eventId'
  | 'eventType'
  | 'occurredAt'
  | 'currency'
  | 'description'
  | 'sourceService'
  | 'sourceId'
  | 'sourceReference'
  | 'txid'
  | 'satoshis'
  | 'exchangeRate'
  | 'rateSource'
  | 'taxJurisdiction'
  | 'taxRate'
  | 'amountMinor'
  | 'taxMinor'
  | 'tipMinor'
> & { lines: NewJournalLine[]; items: NewJournalItem[] };
