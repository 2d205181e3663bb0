import type { JournalEntry } from '@ctk/proto/ctk/books/v1/books';
import { AppError } from '@ctk/shared';
import { describe, expect, it } from 'vitest';
import { toCsv, text } from '../src/ledger/csv.js';
import { beancountJournal } from '../src/ledger/formats/beancount-journal.js';
import { hledgerJournal } from '../src/ledger/formats/hledger-journal.js';
import { plainTextAccounts } from '../src/ledger/formats/plain-text-accounts.js';
import { journalNo } from '../src/ledger/formats/quickbooks-csv.js';
import { exactInteger, formatMinor } from '../src/ledger/minor-units.js';
import { readWholeRange, type ListPage } from '../src/ledger/read-whole-range.js';
import { runTool } from './ledger-harness.js';

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
    taxJurisdiction: '',
    taxRate: '',
    lines: [
      { accountCode: '1010', accountName: 'BSV wallet', accountType: 'asset', debitMinor: 1234n, creditMinor: 0n, memo: '' },
      { accountCode: '4000', accountName: 'Revenue', accountType: 'income', debitMinor: 0n, creditMinor: 1234n, memo: '' },
    ],
    ...overrides,
  };
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

  it('are JSON numbers while exact, and strings of the integer beyond 2^53', () => {
    expect(exactInteger(1234n)).toBe(1234);
    expect(exactInteger(BigInt(Number.MAX_SAFE_INTEGER))).toBe(Number.MAX_SAFE_INTEGER);
    expect(exactInteger(BigInt(Number.MAX_SAFE_INTEGER) + 2n)).toBe('9007199254740993');
  });
});

describe('CSV', () => {
  it('quotes fields with commas, quotes and line breaks, and ends lines with CRLF (RFC 4180)', () => {
    expect(
      toCsv(
        ['a', 'b'],
        [
          ['1,5', 'say "hi"'],
          ['two\nlines', 'plain'],
        ],
      ),
    ).toBe('a,b\r\n"1,5","say ""hi"""\r\n"two\nlines",plain\r\n');
  });

  it('keeps a spreadsheet from reading free text as a formula', () => {
    expect(text('=HYPERLINK("http://x")')).toBe('\'=HYPERLINK("http://x")');
    expect(text('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(text('Order 1')).toBe('Order 1');
  });

  it('numbers a QuickBooks journal in at most 21 characters, the same for the same entry', () => {
    expect(journalNo('0b7c2f1e-7d1a-4c55-9a51-3f2b8c9d0e1f')).toBe('CTK-3F2B8C9D0E1F');
    expect(journalNo('0b7c2f1e-7d1a-4c55-9a51-3f2b8c9d0e1f').length).toBeLessThanOrEqual(21);
  });
});

describe('plain-text account names', () => {
  it('derive from the type and the name, in components beancount accepts, told apart by code when they collide', () => {
    const accounts = plainTextAccounts([
      entry({
        lines: [
          { accountCode: '1010', accountName: 'BSV wallet', accountType: 'asset', debitMinor: 1n, creditMinor: 0n, memo: '' },
          { accountCode: '1040', accountName: 'bsv-wallet', accountType: 'asset', debitMinor: 1n, creditMinor: 0n, memo: '' },
          { accountCode: '2100', accountName: 'Sales tax payable', accountType: 'liability', debitMinor: 0n, creditMinor: 1n, memo: '' },
          { accountCode: '4100', accountName: 'Refunds', accountType: 'expense', debitMinor: 0n, creditMinor: 1n, memo: '' },
          { accountCode: '3000', accountName: 'Café & bar (2nd floor)', accountType: 'equity', debitMinor: 0n, creditMinor: 1n, memo: '' },
          { accountCode: '4200', accountName: '---', accountType: 'income', debitMinor: 0n, creditMinor: 1n, memo: '' },
        ],
      }),
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
  ];
  const context = { handle: 'odd-shop', from: '2026-03-01', to: '2026-03-31' };

  it('still pass hledger check --strict, balanced to zero', async () => {
    const journal = hledgerJournal(awkward, context);
    expect(journal).toContain('2026-03-02 * Tab "A, B" \\ back slash, =1+1 , not a comment');
    expect(journal).toContain('2026-03-02 * payment.received');
    await runTool('hledger', (file) => ['check', '--strict', '-f', file], journal, 'journal');
    const { stdout } = await runTool('hledger', (file) => ['-f', file, 'balance'], journal, 'journal');
    expect(stdout.trim().split('\n').at(-1)?.trim()).toBe('0');
  });

  it('still pass bean-check, with quotes and backslashes escaped', async () => {
    const ledger = beancountJournal(awkward, context);
    expect(ledger).toContain('2026-03-02 * "Tab \\"A; B\\" \\\\ back slash, =1+1 ; not a comment"');
    expect(ledger).toContain('  event_id: "evt,with;odd\\"chars"');
    const { stdout, stderr } = await runTool('bean-check', (file) => [file], ledger, 'beancount');
    expect(stdout + stderr).toBe('');
  });
});

describe('reading a whole range for an export', () => {
  const pages = (count: number, size: number): ListPage => {
    let served = 0;
    return async ({ limit, cursor }) => {
      expect(limit).toBe(100);
      expect(cursor).toBe(served === 0 ? '' : `page-${served}`);
      served++;
      return { entries: Array.from({ length: size }, () => entry()), nextCursor: served < count ? `page-${served}` : '' };
    };
  };

  it('follows the cursor to the last page', async () => {
    expect(await readWholeRange(pages(3, 100))).toHaveLength(300);
  });

  it('answers 422 asking to narrow the range once the entries pass the cap, without reading on', async () => {
    const listPage = pages(10, 100);
    const error = await readWholeRange(listPage, 250).catch((e: unknown) => e);
    expect(AppError.is(error) && error.code).toBe('validation_failed');
    expect((error as AppError).httpStatus).toBe(422);
    expect((error as AppError).message).toContain('narrow it with from and to');
    expect((error as AppError).details).toEqual({ field: 'from', max_entries: 250 });
  });
});
