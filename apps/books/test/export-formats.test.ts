import type { JournalEntry } from '@ctk/proto/ctk/books/v1/books';
import { describe, expect, it } from 'vitest';
import { csvRow, text } from '../src/exports/csv.js';
import type { ExportContext, JournalSummary, Writer } from '../src/exports/export-context.js';
import { beancountJournal } from '../src/exports/formats/beancount-journal.js';
import { hledgerJournal } from '../src/exports/formats/hledger-journal.js';
import { journalCsv } from '../src/exports/formats/journal-csv.js';
import { journalNo, quickbooksCsv } from '../src/exports/formats/quickbooks-csv.js';
import { xeroCsv } from '../src/exports/formats/xero-csv.js';
import { formatMinor } from '../src/exports/minor-units.js';
import { plainTextAccounts } from '../src/exports/plain-text-accounts.js';
import { runTool } from '@ctk/shared/testing';

function entry(overrides: Partial<JournalEntry> = {}): JournalEntry {
  return {
    id: '0b7c2f1e-7d1a-4c55-9a51-3f2b8c9d0e1f',
    eventId: 'evt-1',
    eventType: 'payment.received',
    occurredAt: '2026-03-02T10:00:00.000Z',
    postedAt: '2026-03-02T10:00:01.000Z',
    currency: 'USD',
    description: 'Order 1',
    sourceService: 'pos',
    sourceId: 'order-1',
    txid: '',
    satoshis: 0n,
    exchangeRate: '',
    rateSource: '',
    taxJurisdiction: '',
    taxRate: '',
    lines: [
      { accountCode: '1010', accountName: 'BSV wallet', accountType: 'asset', debitMinor: 1234n, creditMinor: 0n, memo: '' },
      { accountCode: '4000', accountName: 'Revenue', accountType: 'income', debitMinor: 0n, creditMinor: 1234n, memo: '' },
    ],
    ...overrides,
  };
}

/** What books reads from the database before an export, here from the entries themselves (oldest first). */
function summaryOf(entries: readonly JournalEntry[]): JournalSummary {
  const accounts = new Map<string, JournalSummary['accounts'][number]>();
  for (const e of entries) {
    for (const line of e.lines) {
      const account = accounts.get(line.accountCode) ?? {
        code: line.accountCode,
        name: line.accountName,
        type: line.accountType,
        currencies: [],
      };
      if (!account.currencies.includes(e.currency)) account.currencies.push(e.currency);
      accounts.set(line.accountCode, account);
    }
  }
  return {
    entries: entries.length,
    firstDate: entries[0]?.occurredAt.slice(0, 10) ?? '',
    currencies: [...new Set(entries.map((e) => e.currency))],
    accounts: [...accounts.values()],
  };
}

const CONTEXT: ExportContext = { handle: 'odd-shop', from: '2026-03-01', to: '2026-03-31', xeroTaxRate: '' };

/** The whole file a writer writes for the entries. */
function render(writer: Writer, entries: readonly JournalEntry[], context = CONTEXT): string {
  const { head, entry: write } = writer(summaryOf(entries), context);
  return head + entries.map(write).join('');
}

/** A CSV body as rows of fields (RFC 4180), as a naive importer reads it: every CRLF or LF ends a row. */
function naiveRows(body: string): string[] {
  return body.split(/\r?\n/).filter(Boolean);
}

describe('amounts in minor units', () => {
  it("are written as exact decimals by the currency's exponent, with integer arithmetic only", () => {
    expect(formatMinor(1234n, 'USD')).toBe('12.34');
    expect(formatMinor(5n, 'BSV')).toBe('0.00000005');
    expect(formatMinor(2_100_000_000_000_000n, 'BSV')).toBe('21000000.00000000');
    expect(formatMinor(1075n, 'JPY')).toBe('1075');
    expect(formatMinor(1234n, 'KWD')).toBe('1.234');
    expect(formatMinor(7n, 'EUR')).toBe('0.07');
    expect(formatMinor(-7n, 'USD')).toBe('-0.07');
    expect(formatMinor(0n, 'USD')).toBe('0.00');
    expect(formatMinor(123n, 'XYZ')).toBe('1.23');
    expect(formatMinor(2n ** 63n - 1n, 'USD')).toBe('92233720368547758.07');
  });
});

describe('CSV', () => {
  it('quotes fields with commas and quotes, and ends rows with CRLF (RFC 4180)', () => {
    expect(csvRow(['a', 'b'])).toBe('a,b\r\n');
    expect(csvRow(['1,5', 'say "hi"'])).toBe('"1,5","say ""hi"""\r\n');
  });

  it('writes a line break, a tab, U+2028, U+2029 or another control character in a field as a space, so every row is one line', () => {
    expect(csvRow(['two\nlines', 'a\r\nb', 'c\rd', 'e\u2028f', 'g\u2029h', 'i\u0085j', 'k\u0007\u001bl', 'tab\there'])).toBe(
      'two lines,a b,c d,e f,g h,i j,k l,tab here\r\n',
    );
    expect(csvRow(['"quoted\nacross", lines'])).toBe('"""quoted across"", lines"\r\n');
  });

  it('keeps a spreadsheet from reading free text as a formula, also behind blanks and line breaks', () => {
    expect(text('=HYPERLINK("http://x")')).toBe('\'=HYPERLINK("http://x")');
    expect(text('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(text('\t=1+1')).toBe("' =1+1");
    expect(text('\n=1+1')).toBe("' =1+1");
    expect(text('Order 1')).toBe('Order 1');
  });

  it('numbers a QuickBooks journal in at most 21 characters, the same for the same entry', () => {
    expect(journalNo('0b7c2f1e-7d1a-4c55-9a51-3f2b8c9d0e1f')).toBe('CTK-3F2B8C9D0E1F');
    expect(journalNo('0b7c2f1e-7d1a-4c55-9a51-3f2b8c9d0e1f').length).toBeLessThanOrEqual(21);
  });

  it.each([
    ['csv', journalCsv],
    ['quickbooks', quickbooksCsv],
    ['xero', xeroCsv],
  ] as const)('%s: descriptions and memos with line breaks stay one row per journal line', (_, writer) => {
    const broken = entry({
      description: 'Order 7\r\nextra shot\u2028to go\u2029',
      lines: [
        {
          accountCode: '1010',
          accountName: 'BSV wallet',
          accountType: 'asset',
          debitMinor: 500n,
          creditMinor: 0n,
          memo: 'paid\nat the till',
        },
        { accountCode: '4000', accountName: 'Revenue', accountType: 'income', debitMinor: 0n, creditMinor: 500n, memo: '' },
      ],
    });
    const body = render(writer, [broken]);
    expect(naiveRows(body)).toHaveLength(3);
    expect(body).not.toMatch(/[\u2028\u2029]|[^\r]\n|\r[^\n]/);
  });
});

describe('plain-text account names', () => {
  it('derive from the type and the name, in components beancount accepts, told apart by code when they collide', () => {
    const accounts = plainTextAccounts([
      { code: '1010', name: 'BSV wallet', type: 'asset', currencies: ['USD'] },
      { code: '1040', name: 'bsv-wallet', type: 'asset', currencies: ['USD'] },
      { code: '2100', name: 'Sales tax payable', type: 'liability', currencies: ['USD'] },
      { code: '4100', name: 'Refunds', type: 'expense', currencies: ['USD'] },
      { code: '3000', name: 'Café & bar (2nd floor)', type: 'equity', currencies: ['USD'] },
      { code: '4200', name: '---', type: 'income', currencies: ['USD'] },
    ]);
    expect(Object.fromEntries([...accounts].map(([code, account]) => [code, account.name]))).toEqual({
      1010: 'Assets:BSV-Wallet-1010',
      1040: 'Assets:Bsv-Wallet-1040',
      2100: 'Liabilities:Sales-Tax-Payable',
      3000: 'Equity:Cafe-Bar-2nd-Floor',
      4100: 'Expenses:Refunds',
      4200: 'Income:Account-4200',
    });
    for (const { name } of accounts.values())
      expect(name).toMatch(/^(Assets|Liabilities|Equity|Income|Expenses)(:[A-Z0-9][A-Za-z0-9-]*)+$/);
  });
});

describe('plain-text journals with awkward text', () => {
  const awkward = [
    entry({
      description: 'Tab "A; B" \\ back\nslash, =1+1 ; not a comment',
      eventId: 'evt,with;odd"chars',
      txid: 'cd'.repeat(32),
      satoshis: 42n,
    }),
    entry({
      id: '1b7c2f1e-7d1a-4c55-9a51-3f2b8c9d0e1f',
      description: '',
      occurredAt: '2026-03-02T23:59:59.999Z',
      currency: 'BSV',
      lines: [
        {
          accountCode: '1010',
          accountName: 'BSV wallet',
          accountType: 'asset',
          debitMinor: 0n,
          creditMinor: 1n,
          memo: 'a "memo"\nacross lines',
        },
        { accountCode: '4100', accountName: 'Refunds', accountType: 'expense', debitMinor: 1n, creditMinor: 0n, memo: '' },
      ],
    }),
    entry({
      id: '2b7c2f1e-7d1a-4c55-9a51-3f2b8c9d0e1f',
      eventId: 'evt-3',
      occurredAt: '2026-03-03T08:00:00.000Z',
      description: 'Line\u2028separated\u2029paragraphs\u0085and a NEL\r\n2026-01-01 * "injected"',
      lines: [
        { accountCode: '1010', accountName: 'BSV wallet', accountType: 'asset', debitMinor: 300n, creditMinor: 0n, memo: 'memo\u2028two' },
        { accountCode: '4000', accountName: 'Revenue', accountType: 'income', debitMinor: 0n, creditMinor: 300n, memo: '' },
      ],
    }),
  ];

  it('still pass hledger check --strict, balanced to zero', async () => {
    const journal = render(hledgerJournal, awkward);
    expect(journal).toContain('2026-03-02 * Tab "A, B" \\ back slash, =1+1 , not a comment');
    expect(journal).toContain('2026-03-02 * payment.received');
    await runTool('hledger', (file) => ['check', '--strict', '-f', file], journal, 'journal');
    const { stdout } = await runTool('hledger', (file) => ['-f', file, 'balance'], journal, 'journal');
    expect(stdout.trim().split('\n').at(-1)?.trim()).toBe('0');
  });

  it('still pass bean-check, with quotes and backslashes escaped', async () => {
    const ledger = render(beancountJournal, awkward);
    expect(ledger).toContain('2026-03-02 * "Tab \\"A; B\\" \\\\ back slash, =1+1 ; not a comment"');
    expect(ledger).toContain('  event_id: "evt,with;odd\\"chars"');
    const { stdout, stderr } = await runTool('bean-check', (file) => [file], ledger, 'beancount');
    expect(stdout + stderr).toBe('');
  });

  it('write U+2028, U+2029 and NEL in a description or memo as a space, so no text leaves its line', () => {
    for (const writer of [hledgerJournal, beancountJournal]) {
      const journal = render(writer, awkward);
      expect(journal).not.toMatch(/[\u0085\u2028\u2029\r]/);
      expect(journal).toContain('Line separated paragraphs and a NEL 2026-01-01');
      expect(journal).not.toMatch(/^2026-01-01/m);
    }
  });
});

describe('a writer', () => {
  it('writes the same file entry by entry as the formats wrote whole: the head, then each entry after a blank line', () => {
    const entries = [entry(), entry({ id: '1b7c2f1e-7d1a-4c55-9a51-3f2b8c9d0e1f', eventId: 'evt-2' })];
    const journal = render(hledgerJournal, entries);
    expect(
      journal.startsWith('; Journal of odd-shop from Commerce Toolkit, 2026-03-01 to 2026-03-31 (UTC dates)\ndecimal-mark .\n\n'),
    ).toBe(true);
    expect(journal).toContain('account Income:Revenue  ; type: R\n\n2026-03-02 * Order 1\n');
    expect(journal.endsWith('    Income:Revenue     -12.34 USD\n')).toBe(true);
    expect(journal.split('\n\n2026-03-02 * Order 1\n')).toHaveLength(3);
  });

  it('refuses a Xero file of entries in more than one currency before writing anything', () => {
    const summary = summaryOf([entry(), entry({ currency: 'JPY' })]);
    expect(() => xeroCsv(summary, CONTEXT)).toThrow(
      expect.objectContaining({ code: 'validation_failed', details: { field: 'format', currencies: ['USD', 'JPY'] } }),
    );
  });
});
