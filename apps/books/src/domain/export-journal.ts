import { AppError, type CursorPosition, type Org, validate } from '@ctk/shared';
import { z } from 'zod';
import type { DateRange, JournalRepository, RangeSummary } from '../data/journal-repository.js';
import type { JournalSummary } from '../exports/export-context.js';
import { EXPORT_FORMAT_NAMES, EXPORT_FORMATS, exportFileName } from '../exports/export-formats.js';
import { toJournalEntryMessage } from '../grpc/journal-entry-message.js';
import { journalRange, journalRangeFields } from './journal-range.js';
import { checkFromNotAfterTo } from './from-not-after-to.js';

/** The most entries one export holds: beyond it the caller narrows the date range (BOOKS_EXPORT_MAX_ENTRIES). */
export const DEFAULT_MAX_EXPORT_ENTRIES = 50_000;
/** Entries read from the database at a time. */
const PAGE = 100;
/** Bytes of the file in one message. */
const CHUNK = 64 * 1024;

const requestSchema = z
  .object({
    ...journalRangeFields,
    format: z.enum(EXPORT_FORMAT_NAMES, { error: `format must be one of ${EXPORT_FORMAT_NAMES.join(', ')}` }),
    // Empty means the default; only spaces is a mistake, not the default.
    xeroTaxRate: z
      .string()
      .refine((name) => name === '' || name.trim() !== '', 'xero_tax_rate must not be blank: leave it out for "Tax Exempt"')
      .trim()
      .max(60, 'xero_tax_rate must be at most 60 characters'),
  })
  .superRefine((range, context) => {
    checkFromNotAfterTo(range, context);
  });

export type JournalExport = { mediaType: string; fileName: string; chunks: AsyncIterable<Buffer> };

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

/** Each entry's text, a page read at a time, refusing an entry the summary did not account for. */
async function* fileBody(
  journal: JournalRepository,
  organizationId: string,
  range: DateRange,
  summary: JournalSummary,
  write: (entry: ReturnType<typeof toJournalEntryMessage>) => string,
): AsyncGenerator<readonly string[]> {
  const declared = new Set(summary.accounts.flatMap((account) => account.currencies.map((currency) => `${account.code} ${currency}`)));
  let after: CursorPosition | undefined;
  for (;;) {
    const page = await pageText(journal, organizationId, range, after, declared, write);
    yield page.texts;
    if (!page.next) return;
    after = page.next;
  }
}

/**
 * One page written out at once: only its entries' texts outlive the call, not the rows and messages
 * they were written from, which keeps what survives between reads (and so the process's memory) small.
 */
async function pageText(
  journal: JournalRepository,
  organizationId: string,
  range: DateRange,
  after: CursorPosition | undefined,
  declared: ReadonlySet<string>,
  write: (entry: ReturnType<typeof toJournalEntryMessage>) => string,
): Promise<{ texts: string[]; next: CursorPosition | undefined }> {
  const rows = await journal.list(organizationId, range, PAGE, after);
  const texts = rows.map((row) => {
    const entry = toJournalEntryMessage(row);
    if (entry.lines.some((line) => !declared.has(`${line.accountCode} ${entry.currency}`))) {
      throw new AppError('conflict', 'The journal changed while it was being exported: export it again.');
    }
    return write(entry);
  });
  const last = rows.at(-1);
  return { texts, next: rows.length === PAGE && last ? { at: last.occurredAt, id: last.id } : undefined };
}

/**
 * The file's bytes in chunks of CHUNK bytes (the last may be shorter, and an empty file is one empty
 * chunk), whatever the size of the pieces written: a long entry is cut across messages (bytes may be
 * cut anywhere, the reader joins them), and short pieces are gathered into one. A piece that fits in
 * the chunk is encoded straight into it; only one that does not is encoded apart and copied, so an
 * export makes little garbage for the process to collect (no page-sized string or buffer).
 */
async function* chunked(head: string, body: AsyncIterable<readonly string[]>): AsyncGenerator<Buffer> {
  let chunk = Buffer.allocUnsafe(CHUNK);
  let used = 0;
  let sent = 0;
  function* put(text: string): Generator<Buffer> {
    if (Buffer.byteLength(text, 'utf8') <= CHUNK - used) {
      used += chunk.write(text, used, 'utf8');
      return;
    }
    const bytes = Buffer.from(text, 'utf8');
    for (let offset = 0; offset < bytes.length;) {
      const copied = bytes.copy(chunk, used, offset, Math.min(bytes.length, offset + CHUNK - used));
      used += copied;
      offset += copied;
      if (used === CHUNK) {
        yield chunk;
        sent++;
        chunk = Buffer.allocUnsafe(CHUNK);
        used = 0;
      }
    }
  }
  yield* put(head);
  for await (const texts of body) for (const text of texts) yield* put(text);
  if (used > 0 || sent === 0) yield chunk.subarray(0, used);
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
