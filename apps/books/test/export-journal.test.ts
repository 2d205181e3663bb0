import type { ExportJournalResponse } from '@ctk/proto/ctk/books/v1/books';
import type { OrgRef } from '@ctk/proto/ctk/common/v1/common';
import { PaymentEventType } from '@ctk/proto/ctk/events/v1/payment_event';
import { AppError, orgOf } from '@ctk/shared';
import { exportJournal } from '../src/domain/export-journal.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runTool } from '@ctk/shared/testing';
import { newEvent, newOrg, openTestJournal, orgRef, startFedBooks } from './support.js';

type Books = Awaited<ReturnType<typeof startFedBooks>>;

/** Every message of an export, or the error it ended with after the messages before it. */
async function exportOf(books: Books, request: Parameters<Books['client']['exportJournal']>[0]) {
  const messages: ExportJournalResponse[] = [];
  try {
    for await (const message of books.client.exportJournal(request, { timeoutMs: 60_000 })) messages.push(message);
    return { messages, body: Buffer.concat(messages.map((m) => m.chunk)).toString('utf8') };
  } catch (error) {
    return { messages, body: '', error };
  }
}

describe('ExportJournal: the ledger as a file, streamed by books', () => {
  let books: Books;
  let org: OrgRef;
  beforeAll(async () => {
    books = await startFedBooks({ config: { BOOKS_EXPORT_MAX_ENTRIES: '40' } });
    org = orgRef(newOrg().id ?? '');
    org = { ...org, handle: 'corner-cafe' };
    await books.post([
      newEvent(org.id, { occurredAt: new Date('2026-03-01T00:00:00Z'), description: 'First of March' }),
      newEvent(org.id, { occurredAt: new Date('2026-03-31T23:59:59.999Z'), description: 'Last of March', currency: 'JPY', taxMinor: 0n }),
      newEvent(org.id, { occurredAt: new Date('2026-04-01T00:00:00Z'), description: 'First of April' }),
    ]);
  });
  afterAll(() => books.close());

  it('names the file in the first message, with its media type, and carries the file in order', async () => {
    const { messages, body, error } = await exportOf(books, { org, format: 'csv', from: '2026-03-01', to: '2026-03-31' });
    expect(error).toBeUndefined();
    expect(messages[0]).toMatchObject({
      mediaType: 'text/csv; charset=utf-8',
      fileName: 'corner-cafe-2026-03-01-to-2026-03-31-journal.csv',
    });
    expect(messages.slice(1).every((m) => m.mediaType === '' && m.fileName === '')).toBe(true);
    const rows = body.split('\r\n');
    expect(rows[0]).toBe('entry_id,date,event_type,account_code,account_name,debit,credit,currency,description,memo,source,txid');
    expect(rows.filter((row) => row.includes('First of March'))).toHaveLength(3);
    expect(rows.filter((row) => row.includes('Last of March'))).toHaveLength(2);
    expect(body).not.toContain('First of April');
  });

  it('takes the dates as UTC calendar dates, both included, and 9999-12-31 as the end of time', async () => {
    const days = async (from: string, to: string) => (await exportOf(books, { org, format: 'csv', from, to })).body?.split('\r\n').length;
    expect(await days('2026-03-31', '2026-03-31')).toBe(1 + 2 + 1);
    expect(await days('2026-04-01', '9999-12-31')).toBe(1 + 3 + 1);
    expect(await days('', '')).toBe(1 + 8 + 1);
  });

  it('writes a journal longer than one message in many messages, the same bytes however they are cut', async () => {
    const big = newOrg();
    await books.post(
      Array.from({ length: 40 }, (_, i) =>
        newEvent(big.id ?? '', { occurredAt: new Date(Date.UTC(2026, 4, 1, 0, i)), description: `Order ${i} ${'x'.repeat(2_000)} ☕` }),
      ),
    );
    const { messages, body, error } = await exportOf(books, { org: big, format: 'hledger' });
    expect(error).toBeUndefined();
    // Every message but the last is full (64 KiB), so the file takes exactly as many messages as it has 64 KiB pieces.
    expect(messages).toHaveLength(Math.ceil(Buffer.byteLength(body) / (64 * 1024)));
    expect(messages.length).toBeGreaterThan(1);
    expect(messages.slice(0, -1).every((m) => m.chunk.length === 64 * 1024)).toBe(true);
    expect(body.match(/^2026-05-01 \* Order \d+ x+ ☕$/gm)).toHaveLength(40);
    await runTool('hledger', (file) => ['check', '--strict', '-f', file], body, 'journal');
  });

  it('writes a tip on 2400 Tips payable in every format, and the tools accept the files', async () => {
    const tipped = { ...newOrg(), handle: 'tipped-cafe' };
    await books.post([newEvent(tipped.id ?? '', { occurredAt: new Date('2026-06-01T09:00:00Z'), amountMinor: 1275n, tipMinor: 200n })]);
    const files = Object.fromEntries(
      await Promise.all(
        (['csv', 'xero', 'quickbooks', 'hledger', 'beancount'] as const).map(async (format) => {
          const { body, error } = await exportOf(books, { org: tipped, format });
          expect(error).toBeUndefined();
          return [format, body] as const;
        }),
      ),
    );
    expect(files.csv).toMatch(/^[^,]+,2026-06-01,payment\.received,2400,Tips payable,,2\.00,USD,/m);
    expect(files.csv).toMatch(/,4000,Revenue,,10\.00,/);
    expect(files.xero).toMatch(/2400/);
    expect(files.quickbooks).toMatch(/Tips payable/);
    expect(files.hledger).toMatch(/^account Liabilities:Tips-Payable {2}; type: L$/m);
    const { stdout } = await runTool('hledger', (file) => ['-f', file, 'balance', '--flat', 'Tips'], files.hledger ?? '', 'journal');
    expect(stdout).toMatch(/-2\.00 USD\s+Liabilities:Tips-Payable/);
    await runTool('hledger', (file) => ['check', '--strict', '-f', file], files.hledger ?? '', 'journal');
    expect(files.beancount).toMatch(/Liabilities:Tips-Payable/);
    await runTool('bean-check', (file) => [file], files.beancount ?? '', 'beancount');
  });

  it('refuses before the first message: more entries than BOOKS_EXPORT_MAX_ENTRIES, asking for a narrower range', async () => {
    const crowded = newOrg();
    await books.post(Array.from({ length: 41 }, () => newEvent(crowded.id ?? '')));
    const { messages, error } = await exportOf(books, { org: crowded, format: 'csv' });
    expect(messages).toEqual([]);
    expect(AppError.is(error) && error.httpStatus).toBe(422);
    expect(error).toMatchObject({ code: 'validation_failed', details: { field: 'from', max_entries: 40 } });
    expect((error as Error).message).toContain('narrow it with from and to');
  });

  it('refuses before the first message: a Xero file of entries in more than one currency', async () => {
    const { messages, error } = await exportOf(books, { org, format: 'xero', from: '2026-03-01', to: '2026-03-31' });
    expect(messages).toEqual([]);
    expect(error).toMatchObject({ code: 'validation_failed', details: { field: 'format', currencies: ['USD', 'JPY'] } });
    expect((await exportOf(books, { org, format: 'xero', from: '2026-03-01', to: '2026-03-01' })).error).toBeUndefined();
  });

  it.each([
    [{ format: 'pdf' }, 'format'],
    [{ format: 'csv', from: '2026-03-02', to: '2026-03-01' }, 'from'],
    [{ format: 'csv', to: '2026-02-30' }, 'to'],
    [{ format: 'xero', xeroTaxRate: 'x'.repeat(61) }, 'xero_tax_rate'],
    [{ format: 'xero', xeroTaxRate: '   ' }, 'xero_tax_rate'],
  ])('refuses %j as validation_failed naming %s', async (request, field) => {
    const { messages, error } = await exportOf(books, { org, ...request });
    expect(messages).toEqual([]);
    expect(error).toMatchObject({ code: 'validation_failed', details: { field } });
  });

  it('exports an empty range as a head alone, which the tools accept', async () => {
    const { messages, body } = await exportOf(books, { org, format: 'beancount', from: '2027-01-01' });
    expect(messages).toHaveLength(1);
    expect(messages[0]?.fileName).toBe('corner-cafe-from-2027-01-01-ledger.beancount');
    await runTool('bean-check', (file) => [file], body, 'beancount');
  });
});

describe('exporting while entries are posted', () => {
  it('ends the file with an error, never a file the tools refuse, when an entry brings an account it did not declare', async () => {
    const books = await openTestJournal();
    try {
      const shop = newOrg();
      await books.post(newEvent(shop.id ?? ''));
      // A refund posted in the instant between the summary and the read: its account (4100 Refunds) was not declared.
      const journal = books.deps.journal;
      const racing: typeof journal = {
        ...journal,
        summarize: async (...args) => {
          const summary = await journal.summarize(...args);
          await books.post(newEvent(shop.id ?? '', { type: PaymentEventType.PAYMENT_EVENT_TYPE_PAYMENT_REFUNDED }));
          return { ...summary, postedBy: new Date(Date.now() + 60_000) };
        },
      };
      const file = await exportJournal(racing, orgOf(shop), { from: '', to: '', format: 'hledger', xeroTaxRate: '' });
      const error = await (async () => {
        for await (const chunk of file.chunks) expect(chunk.toString()).toContain('Journal of');
      })().catch((e: unknown) => e);
      expect(error).toMatchObject({ code: 'conflict', message: 'The journal changed while it was being exported: export it again.' });
    } finally {
      await books.close();
    }
  });

  it('leaves out entries posted after it summarised the range', async () => {
    const books = await openTestJournal();
    try {
      const shop = newOrg();
      await books.post(newEvent(shop.id ?? '', { description: 'Before' }));
      const journal = books.deps.journal;
      const later: typeof journal = {
        ...journal,
        summarize: async (...args) => {
          const summary = await journal.summarize(...args);
          await new Promise((resolve) => setTimeout(resolve, 5));
          await books.post(newEvent(shop.id ?? '', { description: 'After' }));
          return summary;
        },
      };
      const file = await exportJournal(later, orgOf(shop), { from: '', to: '', format: 'csv', xeroTaxRate: '' });
      let body = '';
      for await (const chunk of file.chunks) body += chunk.toString();
      expect(body).toContain('Before');
      expect(body).not.toContain('After');
    } finally {
      await books.close();
    }
  });
});
