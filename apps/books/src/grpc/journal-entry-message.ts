import type { JournalEntry as JournalEntryMessage } from '@ctk/proto/ctk/books/v1/books';
import type { ListedEntry } from '../data/journal-repository.js';

/** An entry as the contract says it: what it lacks (an empty or null column) is left unset. */
export function toJournalEntryMessage(entry: ListedEntry): JournalEntryMessage {
  return {
    id: entry.id,
    eventId: entry.eventId,
    eventType: entry.eventType,
    occurredAt: entry.occurredAt.toISOString(),
    postedAt: entry.postedAt.toISOString(),
    currency: entry.currency,
    description: entry.description,
    sourceService: entry.sourceService || undefined,
    sourceId: entry.sourceId || undefined,
    sourceReference: entry.sourceReference || undefined,
    txid: entry.txid || undefined,
    satoshis: entry.satoshis,
    exchangeRate: entry.exchangeRate || undefined,
    rateSource: entry.rateSource || undefined,
    taxJurisdiction: entry.taxJurisdiction || undefined,
    taxRate: entry.taxRate || undefined,
    lines: entry.lines.map((line) => ({
      accountCode: line.account.code,
      accountName: line.account.name,
      accountType: line.account.type,
      debitMinor: line.debitMinor,
      creditMinor: line.creditMinor,
      memo: line.memo || undefined,
    })),
  };
}
