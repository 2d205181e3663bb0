import type { FileAnswer } from '../routes/route-definition.js';

/** The ledger's exports for accounting software, by media type, with an example of each. */

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
