import type { JournalEntry } from '@ctk/proto/ctk/books/v1/books';

/** What an export is of: the organisation and the date range asked for (UTC days, both included). */
export type ExportContext = { handle: string; from: string; to: string; xeroTaxRate: string };

/** An account the range's entries post to, with the currencies they post to it in, first seen first. */
export type UsedAccount = { code: string; name: string; type: string; currencies: string[] };

/**
 * What a file must declare before its first entry, read from the range at once (the entries
 * themselves come page by page): how many there are, the first one's UTC date ('' for none), their
 * currencies first seen first, and the accounts they use, by code.
 */
export type JournalSummary = { entries: number; firstDate: string; currencies: string[]; accounts: UsedAccount[] };

/** A file written as it goes: its opening (headers, declarations), then each entry's text in order. */
export type FormatWriter = { head: string; entry(entry: JournalEntry): string };

export type Writer = (summary: JournalSummary, context: ExportContext) => FormatWriter;

/** The date range in words, for a file's header: "2026-03-01 to 2026-03-31", "from 2026-03-01", "all dates". */
export function rangeText(context: Pick<ExportContext, 'from' | 'to'>): string {
  if (context.from && context.to) return `${context.from} to ${context.to}`;
  if (context.from) return `from ${context.from}`;
  return context.to ? `up to ${context.to}` : 'all dates';
}

/** "pos:0b7c..." or "" when the entry names no source. */
export function sourceReference(entry: JournalEntry): string {
  return entry.sourceService || entry.sourceId ? `${entry.sourceService ?? ''}:${entry.sourceId ?? ''}` : '';
}

/** The entry's description, or its event type when it has none. */
export function title(entry: JournalEntry): string {
  return entry.description.trim() || entry.eventType;
}

/** The references an entry carries into a plain-text journal, those present only. */
export function referencesOf(entry: JournalEntry): Array<[string, string]> {
  const pairs: Array<[string, string]> = [
    ['entry_id', entry.id],
    ['event_id', entry.eventId],
    ['event_type', entry.eventType],
    ['source', sourceReference(entry)],
    ['reference', entry.sourceReference ?? ''],
    ['txid', entry.txid ?? ''],
    ['satoshis', entry.satoshis ? entry.satoshis.toString() : ''],
  ];
  return pairs.filter(([, value]) => value !== '');
}
