import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onboard, type Onboarded, type Gateway } from './harness.js';
import { runTool } from '@ctk/shared/testing';
import { everyKindOfEvent, getLedger, post, startLedgerStack } from './ledger-harness.js';
import { expectError, uniqueName } from './support.js';

/** A CSV body as rows of fields (RFC 4180: quoted fields may hold commas, quotes and line breaks). */
function parseCsv(body: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (quoted && c === '"' && body[i + 1] === '"') {
      field += '"';
      i++;
    } else if (c === '"') {
      quoted = !quoted;
    } else if (!quoted && c === ',') {
      row.push(field);
      field = '';
    } else if (!quoted && c === '\r' && body[i + 1] === '\n') {
      rows.push([...row, field]);
      row = [];
      field = '';
      i++;
    } else {
      field += c;
    }
  }
  return rows;
}

/** Rows as objects keyed by the header. */
function records(body: string): Array<Record<string, string>> {
  const [header = [], ...rows] = parseCsv(body);
  return rows.map((row) => Object.fromEntries(header.map((name, i) => [name, row[i] ?? ''])));
}

describe('the ledger exports, through the gateway and the books service over gRPC', () => {
  let stack: Awaited<ReturnType<typeof startLedgerStack>>;
  let gateway: Gateway;
  let shop: Onboarded;
  const exported = async (query: string) => {
    const response = await getLedger(gateway, shop.key, shop, query);
    expect(response.statusCode, response.body).toBe(200);
    return response;
  };
  beforeAll(async () => {
    stack = await startLedgerStack();
    gateway = stack.gateway;
    shop = await onboard(gateway, uniqueName('Export Cafe'));
    await post(gateway, everyKindOfEvent(shop.orgId));
  });
  afterAll(async () => {
    await stack?.close();
  });

  it("writes the plain journal CSV one row per line, with exact decimal amounts by the currency's exponent", async () => {
    const response = await exported('?format=csv&from=2026-03-01&to=2026-03-31');
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toBe(`attachment; filename="${shop.handle}-2026-03-01-to-2026-03-31-journal.csv"`);
    expect(response.body.split('\r\n')[0]).toBe(
      'entry_id,date,event_type,account_code,account_name,debit,credit,currency,description,memo,source,txid',
    );
    const rows = records(response.body);
    expect(rows).toHaveLength(3 + 3 + 2 + 3 + 2 + 2 + 2);
    const json = (await getLedger(gateway, shop.key, shop)).json().data;
    expect(rows[0]).toEqual({
      entry_id: json[0].id,
      date: '2026-03-02',
      event_type: 'payment.received',
      account_code: '1010',
      account_name: 'BSV wallet',
      debit: '12.34',
      credit: '',
      currency: 'USD',
      description: 'Order 1, "flat white" & croissant',
      memo: '',
      source: `pos:${json[0].source_id}`,
      txid: 'ab'.repeat(32),
    });
    expect(rows.slice(1, 3).map((r) => [r.account_code, r.debit, r.credit])).toEqual([
      ['4000', '', '11.50'],
      ['2100', '', '0.84'],
    ]);
    const amountsOf = (description: string) =>
      rows.filter((r) => r.description === description).map((r) => [r.account_code, r.debit, r.credit, r.currency]);
    expect(amountsOf('Refund of order 1')).toEqual([
      ['4100', '4.66', '', 'USD'],
      ['2100', '0.34', '', 'USD'],
      ['1020', '', '5.00', 'USD'],
    ]);
    expect(amountsOf('Tip in satoshis')).toEqual([
      ['1010', '0.00000005', '', 'BSV'],
      ['4000', '', '0.00000005', 'BSV'],
    ]);
    expect(amountsOf('Matcha (yen)')).toEqual([
      ['1010', '1075', '', 'JPY'],
      ['4000', '', '1075', 'JPY'],
    ]);
  });

  it('writes the QuickBooks Online journal entry import, dates MM/DD/YYYY and the lines of an entry under one JournalNo', async () => {
    const response = await exported('?format=quickbooks&from=2026-03-01&to=2026-03-05');
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toBe(`attachment; filename="${shop.handle}-2026-03-01-to-2026-03-05-quickbooks.csv"`);
    expect(parseCsv(response.body)[0]).toEqual([
      'JournalNo',
      'JournalDate',
      'Currency',
      'Memo',
      'AccountName',
      'Debits',
      'Credits',
      'Description',
      'Name',
    ]);
    const rows = records(response.body);
    expect(rows).toHaveLength(3 + 3 + 2 + 3);
    const sale = rows.slice(0, 3);
    expect(new Set(sale.map((r) => r.JournalNo)).size).toBe(1);
    expect(sale[0]?.JournalNo).toMatch(/^CTK-[0-9A-F]{12}$/);
    expect(sale.map((r) => [r.JournalDate, r.Currency, r.AccountName, r.Debits, r.Credits])).toEqual([
      ['03/02/2026', 'USD', 'BSV wallet', '12.34', ''],
      ['03/02/2026', 'USD', 'Revenue', '', '11.50'],
      ['03/02/2026', 'USD', 'Sales tax payable', '', '0.84'],
    ]);
    expect(sale[0]?.Memo).toContain(`txid ${'ab'.repeat(32)}`);
    expect(new Set(rows.map((r) => r.JournalNo)).size).toBe(4);
    expect(rows.filter((r) => r.Debits !== '' && r.Credits !== '')).toEqual([]);
  });

  it('writes the Xero manual journal import, one row per line, debits positive and credits negative', async () => {
    const response = await exported('?format=xero&from=2026-03-02&to=2026-03-03');
    expect(response.headers['content-disposition']).toBe(`attachment; filename="${shop.handle}-2026-03-02-to-2026-03-03-xero.csv"`);
    expect(parseCsv(response.body)[0]).toEqual([
      '*Narration',
      '*Date',
      'Description',
      '*AccountCode',
      '*TaxRate',
      '*Amount',
      'TrackingName1',
      'TrackingOption1',
      'TrackingName2',
      'TrackingOption2',
    ]);
    const rows = records(response.body);
    expect(rows.map((r) => [r['*Date'], r['*AccountCode'], r['*TaxRate'], r['*Amount']])).toEqual([
      ['02/03/2026', '1010', 'Tax Exempt', '12.34'],
      ['02/03/2026', '4000', 'Tax Exempt', '-11.50'],
      ['02/03/2026', '2100', 'Tax Exempt', '-0.84'],
      ['03/03/2026', '4100', 'Tax Exempt', '4.66'],
      ['03/03/2026', '2100', 'Tax Exempt', '0.34'],
      ['03/03/2026', '1020', 'Tax Exempt', '-5.00'],
    ]);
    expect(new Set(rows.map((r) => r['*Narration'])).size).toBe(2);
    expect(rows[0]?.['*Narration']).toMatch(/^Order 1, "flat white" & croissant \[CTK-[0-9A-F]{12}\]$/);
    const renamed = records((await exported('?format=xero&from=2026-03-02&to=2026-03-02&xero_tax_rate=No%20VAT')).body);
    expect(renamed.map((r) => r['*TaxRate'])).toEqual(['No VAT', 'No VAT', 'No VAT']);
  });

  it('refuses a Xero export of entries in more than one currency, since a manual journal has no currency', async () => {
    const response = await getLedger(gateway, shop.key, shop, '?format=xero');
    expectError(response, 422, 'validation_failed');
    expect(response.json().error.details.currencies).toEqual(['USD', 'BSV', 'JPY']);
  });

  it('writes an hledger journal that hledger checks strictly and whose balances total zero', async () => {
    const response = await exported('?format=hledger');
    expect(response.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(response.headers['content-disposition']).toBe(`attachment; filename="${shop.handle}-hledger.journal"`);
    const journal = response.body;
    expect(journal).toContain('commodity 1000.00 USD');
    expect(journal).toContain('commodity 1000.00000000 BSV');
    expect(journal).toContain('commodity 1000. JPY');
    expect(journal).toMatch(/^account Assets:BSV-Wallet {2}; type: A$/m);
    expect(journal).toMatch(/^account Liabilities:Sales-Tax-Payable {2}; type: L$/m);
    expect(journal).toMatch(/^account Income:Revenue {2}; type: R$/m);
    expect(journal).toMatch(/^account Expenses:Refunds {2}; type: X$/m);
    expect(journal).toMatch(/^ {4}Assets:BSV-Wallet +12\.34 USD$/m);
    expect(journal).toMatch(/^ {4}Assets:BSV-Wallet +0\.00000005 BSV$/m);
    expect(journal).toContain(`    ; txid: ${'ab'.repeat(32)}`);
    await runTool('hledger', (file) => ['check', '--strict', '-f', file], journal, 'journal');
    await runTool('hledger', (file) => ['check', 'ordereddates', '-f', file], journal, 'journal');
    const { stdout } = await runTool('hledger', (file) => ['-f', file, 'balance'], journal, 'journal');
    // Two USD sales into the wallet: 12.34 + 9.99.
    expect(stdout).toMatch(/^ +22\.33 USD {2}Assets:BSV-Wallet$/m);
    expect(stdout).toMatch(/^ +-14\.25 USD {2}Liabilities:Gift-Card-Liability$/m);
    expect(stdout.trim().split('\n').at(-1)?.trim()).toBe('0');
    const revenue = await runTool('hledger', (file) => ['-f', file, 'balance', 'Income:Revenue', '-N'], journal, 'journal');
    expect(revenue.stdout).toMatch(/-0\.00000005 BSV/);
    expect(revenue.stdout).toMatch(/-1075 JPY/);
    // 11.50 and 9.99 of sales, 10.00 of a redeemed gift card.
    expect(revenue.stdout).toMatch(/-31\.49 USD/);
  });

  it('writes a beancount ledger that bean-check accepts, with accounts opened for their currencies', async () => {
    const response = await exported('?format=beancount&from=2026-03-01&to=2026-03-31');
    expect(response.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(response.headers['content-disposition']).toBe(`attachment; filename="${shop.handle}-2026-03-01-to-2026-03-31-ledger.beancount"`);
    const ledger = response.body;
    expect(ledger).toContain('2026-03-02 commodity BSV');
    expect(ledger).toContain('2026-03-02 open Assets:BSV-Wallet USD,BSV,JPY');
    expect(ledger).toContain('2026-03-02 open Liabilities:Gift-Card-Liability USD');
    expect(ledger).toContain('2026-03-02 * "Order 1, \\"flat white\\" & croissant"');
    expect(ledger).toMatch(/^ {2}Expenses:Refunds {2}4\.66 USD$/m);
    expect(ledger).toMatch(/^ {2}Income:Revenue {2}-0\.00000005 BSV$/m);
    expect(ledger).toMatch(/^ {2}event_id: "evt-[0-9a-f-]{36}"$/m);
    // The order's own number, as the shop knows it.
    expect(ledger).toMatch(/^ {2}reference: "A-1001"$/m);
    const { stdout, stderr } = await runTool('bean-check', (file) => [file], ledger, 'beancount');
    expect(stdout + stderr).toBe('');
  });

  it('exports an empty range as a file the tools still accept', async () => {
    const csv = await exported('?format=csv&from=2027-01-01&to=2027-01-31');
    expect(records(csv.body)).toEqual([]);
    const hledger = await exported('?format=hledger&from=2027-01-01');
    expect(hledger.headers['content-disposition']).toBe(`attachment; filename="${shop.handle}-from-2027-01-01-hledger.journal"`);
    await runTool('hledger', (file) => ['check', '--strict', '-f', file], hledger.body, 'journal');
    await runTool('bean-check', (file) => [file], (await exported('?format=beancount&from=2027-01-01')).body, 'beancount');
  });
});
