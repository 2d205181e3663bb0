import type { JournalEntry, JournalLine } from '@ctk/proto/ctk/books/v1/books';
import type { JournalEntryAnswer, JournalLineAnswer } from './ledger-answers.js';
import { exactInteger } from './minor-units.js';

/**
 * A journal entry as the API shows it: snake_case, amounts as integers of minor units of `currency`
 * (a string only past 2^53, where a JSON number would not be exact), empty optional fields as null.
 */
export function entryView(entry: JournalEntry): JournalEntryAnswer {
  return {
    id: entry.id,
    event_id: entry.eventId,
    event_type: entry.eventType,
    occurred_at: entry.occurredAt,
    posted_at: entry.postedAt,
    currency: entry.currency,
    description: entry.description,
    source_service: entry.sourceService || null,
    source_id: entry.sourceId || null,
    txid: entry.txid || null,
    satoshis: exactInteger(entry.satoshis),
    exchange_rate: entry.exchangeRate || null,
    rate_source: entry.rateSource || null,
    tax_jurisdiction: entry.taxJurisdiction || null,
    tax_rate: entry.taxRate || null,
    lines: entry.lines.map(lineView),
  };
}

function lineView(line: JournalLine): JournalLineAnswer {
  return {
    account_code: line.accountCode,
    account_name: line.accountName,
    account_type: line.accountType,
    debit_minor: exactInteger(line.debitMinor),
    credit_minor: exactInteger(line.creditMinor),
    memo: line.memo || null,
  };
}
