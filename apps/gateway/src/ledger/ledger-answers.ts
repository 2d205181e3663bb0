import { z } from 'zod';
import { minorUnits, named, pageOf } from '../routes/answer-schema.js';
import type { FileAnswer } from '../routes/route-definition.js';

/** What the ledger answers: a page of journal entries as JSON, or the whole range as a file for accounting software. */

const EXAMPLE_ENTRY = {
  id: '6d8f0a2c-4e1b-4c3d-a5e7-9b1d3f5a7c20',
  event_id: 'f1a3c5e7-9b2d-4f6a-8c0e-2b4d6f8a1c35',
  event_type: 'payment.received',
  occurred_at: '2026-03-02T09:41:07.000Z',
  posted_at: '2026-03-02T09:41:08.000Z',
  currency: 'USD',
  description: 'Oat milk latte',
  source_service: 'p2p',
  source_id: 'a3f9c1e5b7d2',
  txid: '318175b67a09e6fbd8bf420c7e16dd715648021a1b95751317501a6c1bbe700f',
  satoshis: 1928125,
  exchange_rate: '3125',
  rate_source: 'fixed',
  tax_jurisdiction: 'US-CA',
  tax_rate: '0.0725',
  lines: [
    { account_code: '1010', account_name: 'BSV wallet', account_type: 'asset', debit_minor: 617, credit_minor: 0, memo: null },
    { account_code: '2100', account_name: 'Sales tax payable', account_type: 'liability', debit_minor: 0, credit_minor: 42, memo: null },
    { account_code: '4000', account_name: 'Revenue', account_type: 'income', debit_minor: 0, credit_minor: 575, memo: null },
  ],
};

export const journalLine = z.object({
  account_code: z.string(),
  account_name: z.string(),
  account_type: z.string().describe('asset, liability, equity, income or expense'),
  debit_minor: minorUnits,
  credit_minor: minorUnits,
  memo: z.string().nullable(),
});

export const journalEntry = named(
  'JournalEntry',
  z.object({
    id: z.uuid(),
    event_id: z.string(),
    event_type: z.string().describe('e.g. payment.received, payment.refunded'),
    occurred_at: z.string(),
    posted_at: z.string(),
    currency: z.string().describe('ISO 4217 code of every line’s amounts, or BSV (in satoshis)'),
    description: z.string(),
    source_service: z.string().nullable(),
    source_id: z.string().nullable(),
    txid: z.string().nullable(),
    satoshis: minorUnits,
    exchange_rate: z.string().nullable().describe('Satoshis per minor unit, a decimal string'),
    rate_source: z.string().nullable().describe('Where exchange_rate came from, e.g. fixed; null when the payment did not say'),
    tax_jurisdiction: z.string().nullable(),
    tax_rate: z.string().nullable(),
    lines: z.array(journalLine).describe('Debits first; debits and credits sum to the same amount'),
  }),
  EXAMPLE_ENTRY,
);
export type JournalEntryAnswer = z.infer<typeof journalEntry>;
export type JournalLineAnswer = z.infer<typeof journalLine>;
export const journalEntryPage = pageOf('JournalEntry', journalEntry, 'MjAyNi0wMy0wMlQwOTo0MTowNy4wMDBafDZkOGYwYTJj');

const CSV_EXAMPLE = [
  'entry_id,date,event_type,account_code,account_name,debit,credit,currency,description,memo,source,txid',
  '6d8f0a2c-4e1b-4c3d-a5e7-9b1d3f5a7c20,2026-03-02,payment.received,1010,BSV wallet,6.17,,USD,Oat milk latte,,p2p:a3f9c1e5b7d2,318175b67a09e6fbd8bf420c7e16dd715648021a1b95751317501a6c1bbe700f',
  '6d8f0a2c-4e1b-4c3d-a5e7-9b1d3f5a7c20,2026-03-02,payment.received,2100,Sales tax payable,,0.42,USD,Oat milk latte,,p2p:a3f9c1e5b7d2,318175b67a09e6fbd8bf420c7e16dd715648021a1b95751317501a6c1bbe700f',
  '6d8f0a2c-4e1b-4c3d-a5e7-9b1d3f5a7c20,2026-03-02,payment.received,4000,Revenue,,5.75,USD,Oat milk latte,,p2p:a3f9c1e5b7d2,318175b67a09e6fbd8bf420c7e16dd715648021a1b95751317501a6c1bbe700f',
  '',
].join('\r\n');

const HLEDGER_EXAMPLE = [
  '; Journal of blue-bottle-cafe from Commerce Toolkit, 2026-03-01 to 2026-03-31 (UTC dates)',
  'decimal-mark .',
  '',
  'commodity 1000.00 USD',
  '',
  'account Assets:BSV-Wallet  ; type: A',
  'account Liabilities:Sales-Tax-Payable  ; type: L',
  'account Income:Revenue  ; type: R',
  '',
  '2026-03-02 * Oat milk latte',
  '    ; entry_id: 6d8f0a2c-4e1b-4c3d-a5e7-9b1d3f5a7c20',
  '    ; event_id: f1a3c5e7-9b2d-4f6a-8c0e-2b4d6f8a1c35',
  '    ; event_type: payment.received',
  '    ; source: p2p:a3f9c1e5b7d2',
  '    ; txid: 318175b67a09e6fbd8bf420c7e16dd715648021a1b95751317501a6c1bbe700f',
  '    ; satoshis: 1928125',
  '    Assets:BSV-Wallet               6.17 USD',
  '    Liabilities:Sales-Tax-Payable  -0.42 USD',
  '    Income:Revenue                 -5.75 USD',
  '',
].join('\n');

/** The exports, by media type: `format=csv|quickbooks|xero` answer CSV, `format=hledger|beancount` plain-text journals. */
export const LEDGER_FILES: Record<'text/csv' | 'text/plain', FileAnswer> = {
  'text/csv': { description: 'format=csv, quickbooks or xero: the whole range as an import file (an attachment)', example: CSV_EXAMPLE },
  'text/plain': {
    description: 'format=hledger or beancount: the whole range as a plain-text journal (an attachment)',
    example: HLEDGER_EXAMPLE,
  },
};
