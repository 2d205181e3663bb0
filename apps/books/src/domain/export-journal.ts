import { AppError, type CursorPosition, type Org, validate } from '@ctk/shared';
import { z } from 'zod';
import type { DateRange, JournalRepository, RangeSummary } from '../data/journal-repository.js';
import type { JournalSummary } from '../exports/export-context.js';
import { EXPORT_FORMAT_NAMES, EXPORT_FORMATS, exportFileName } from '../exports/export-formats.js';
import { toJournalEntryMessage } from '../grpc/journal-entry-message.js';
import { journalRange, journalRangeFields, refineJournalRange } from './journal-range.js';

/** The most entries one export holds: beyond it the caller narrows the date range (BOOKS_EXPORT_MAX_ENTRIES). */
export const DEFAULT_MAX_EXPORT_ENTRIES = 50_000;
/** Entries read from the database at a time. */
const PAGE = 500;
/** About this many characters of the file go in one message. */
const CHUNK = 64 * 1024;

const requestSchema = z
  .object({
    ...journalRangeFields,
    format: z.enum(EXPORT_FORMAT_NAMES, { error: `format must be one of ${EXPORT_FORMAT_NAMES.join(', ')}` }),
    xeroTaxRate: z.string().trim().max(60, 'xero_tax_rate must be at most 60 characters'),
  })
  .superRefine(refineJournalRange);

export type JournalExport = { mediaType: string; fileName: string; chunks: AsyncIterable<string> };

/**
 * The organisation's journal entries from the UTC date `from` to `to` (both included) as a file for
 * accounting software, written as it is read: everything that can refuse the export (the input, more
 * than `maxEntries` entries, a format's own rule such as Xero's one currency) is checked when this
 * resolves, before the first byte; then `chunks` reads the range a page at a time and yields the file
 * in pieces, so neither the journal nor the file is ever held whole. The entries are those posted by
 * the time the range was summarised; one posted in that instant with an account or currency the file
 * did not declare ends the file with an error rather than a file the tools would refuse.
 */
export async function exportJournal(
  journal: JournalRepository,
  org: Org,
  input: { from: string; to: string; format: string; xeroTaxRate: string },
  maxEntries = DEFAULT_MAX_EXPORT_ENTRIES,
): Promise<JournalExport> {
  const { format: name, xeroTaxRate, ...dates } = validate(requestSchema, input);
  const format = EXPORT_FORMATS[name];
  const range = journalRange(dates);
  const found = await journal.summarize(org.id, range);
  if (found.entries > maxEntries) {
    throw new AppError(
      'validation_failed',
      `This date range holds more than ${maxEntries} journal entries, more than one export holds: narrow it with from and to.`,
      { field: 'from', max_entries: maxEntries },
    );
  }
  const summary = journalSummary(found);
  const context = { handle: org.handle, ...dates, xeroTaxRate };
  const writer = format.writer(summary, context);
  return {
    mediaType: format.mediaType,
    fileName: exportFileName(format, context),
    chunks: chunked(writer.head, fileBody(journal, org.id, { ...range, postedBy: found.postedBy }, summary, writer.entry)),
  };
}

/** Each entry's text, page by page, refusing an entry the summary did not account for. */
async function* fileBody(
  journal: JournalRepository,
  organizationId: string,
  range: DateRange,
  summary: JournalSummary,
  write: (entry: ReturnType<typeof toJournalEntryMessage>) => string,
): AsyncGenerator<string> {
  const declared = new Set(summary.accounts.flatMap((account) => account.currencies.map((currency) => `${account.code} ${currency}`)));
  let after: CursorPosition | undefined;
  for (;;) {
    const page = await journal.list(organizationId, range, PAGE, after);
    for (const row of page) {
      const entry = toJournalEntryMessage(row);
      if (entry.lines.some((line) => !declared.has(`${line.accountCode} ${entry.currency}`))) {
        throw new AppError('conflict', 'The journal changed while it was being exported: export it again.');
      }
      yield write(entry);
    }
    const last = page.at(-1);
    if (page.length < PAGE || !last) return;
    after = { at: last.occurredAt, id: last.id };
  }
}

/** The head, then the body's pieces gathered into chunks of about CHUNK characters (the last may be shorter). */
async function* chunked(head: string, body: AsyncIterable<string>): AsyncGenerator<string> {
  let parts = [head];
  let size = head.length;
  for await (const part of body) {
    parts.push(part);
    size += part.length;
    if (size >= CHUNK) {
      yield parts.join('');
      parts = [];
      size = 0;
    }
  }
  if (parts.length > 0) yield parts.join('');
}

/** The summary a format declares from: currencies and each account's currencies in the order entries first used them. */
function journalSummary(found: RangeSummary): JournalSummary {
  const firsts = [...found.accounts].sort((a, b) => a.firstAt.getTime() - b.firstAt.getTime() || (a.firstId < b.firstId ? -1 : 1));
  const accounts = new Map<string, JournalSummary['accounts'][number]>();
  const currencies: string[] = [];
  for (const { code, name, type, currency } of firsts) {
    const account = accounts.get(code) ?? { code, name, type, currencies: [] };
    account.currencies.push(currency);
    accounts.set(code, account);
    if (!currencies.includes(currency)) currencies.push(currency);
  }
  return {
    entries: found.entries,
    firstDate: found.firstAt ? found.firstAt.toISOString().slice(0, 10) : '',
    currencies,
    accounts: [...accounts.values()],
  };
}
