import type { JournalEntry as JournalEntryMessage } from '@ctk/proto/ctk/books/v1/books';
import type { ListedEntry } from '../data/journal-repository.js';

export function toJournalEntryMessage(entry: ListedEntry): JournalEntryMessage {
  return {
    id: entry.id,
    eventId: entry.eventId,
    eventType: entry.eventType,
    occurredAt: entry.occurredAt.toISOString(),
    postedAt: entry.postedAt.toISOString(),
    currency: entry.currency,
    description: entry.description,
    sourceService: entry.sourceService,
    sourceId: entry.sourceId,
    txid: entry.txid ?? '',
    satoshis: entry.satoshis,
    exchangeRate: entry.exchangeRate,
    rateSource: entry.rateSource,
    taxJurisdiction: entry.taxJurisdiction ?? '',
    taxRate: entry.taxRate ?? '',
    lines: entry.lines.map((line) => ({
      accountCode: line.account.code,
      accountName: line.account.name,
      accountType: line.account.type,
      debitMinor: line.debitMinor,
      creditMinor: line.creditMinor,
      memo: line.memo ?? '',
    })),
  };
}
