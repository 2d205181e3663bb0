import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, onboard, startTestGateway, type Onboarded, type Gateway } from './harness.js';
import { everyKindOfEvent, getLedger, post, startLedgerStack } from './ledger-harness.js';
import { expectError, SERVICES_DOWN, uniqueName } from './support.js';

type Line = {
  account_code: string;
  account_name: string;
  account_type: string;
  debit_minor: number;
  credit_minor: number;
  memo: string | null;
};
type Entry = { id: string; event_type: string; occurred_at: string; currency: string; description: string; lines: Line[] } & Record<
  string,
  unknown
>;
type Page = { data: Entry[]; next_cursor: string | null };

describe('the ledger as JSON, through the gateway and the books service over gRPC', () => {
  let stack: Awaited<ReturnType<typeof startLedgerStack>>;
  let gateway: Gateway;
  let shop: Onboarded;
  beforeAll(async () => {
    stack = await startLedgerStack();
    gateway = stack.gateway;
    shop = await onboard(gateway, uniqueName('Ledger Cafe'));
    await post(gateway, everyKindOfEvent(shop.orgId));
  });
  afterAll(async () => {
    await stack?.close();
  });

  it('lists every entry oldest first, each balanced, with amounts as integers of minor units', async () => {
    const response = await getLedger(gateway, shop.key, shop);
    expect(response.statusCode).toBe(200);
    const page: Page = response.json();
    expect(page.next_cursor).toBeNull();
    expect(page.data.map((e) => e.event_type)).toEqual([
      'payment.received',
      'payment.refunded',
      'prepaid.issued',
      'prepaid.redeemed',
      'payment.received',
      'payment.received',
      'payment.received',
    ]);
    for (const entry of page.data) {
      const debits = entry.lines.reduce((sum, line) => sum + line.debit_minor, 0);
      const credits = entry.lines.reduce((sum, line) => sum + line.credit_minor, 0);
      expect(debits).toBe(credits);
      for (const line of entry.lines) {
        expect(Number.isInteger(line.debit_minor) && Number.isInteger(line.credit_minor)).toBe(true);
        expect(line.debit_minor > 0 !== line.credit_minor > 0).toBe(true);
      }
    }
  });

  it('shows an entry in snake_case with its lines, references and tax', async () => {
    const sale = ((await getLedger(gateway, shop.key, shop)).json() as Page).data[0];
    expect(sale).toMatchObject({
      event_type: 'payment.received',
      occurred_at: '2026-03-02T10:00:00.000Z',
      currency: 'USD',
      description: 'Order 1, "flat white" & croissant',
      source_service: 'pos',
      source_reference: 'A-1001',
      txid: 'ab'.repeat(32),
      satoshis: 2_468_000,
      exchange_rate: '2000',
      rate_source: 'fixed',
      tax_jurisdiction: 'US-CA',
      tax_rate: '0.0725',
    });
    expect(Object.keys(sale ?? {}).sort()).toEqual([
      'currency',
      'description',
      'event_id',
      'event_type',
      'exchange_rate',
      'id',
      'lines',
      'occurred_at',
      'posted_at',
      'rate_source',
      'satoshis',
      'source_id',
      'source_reference',
      'source_service',
      'tax_jurisdiction',
      'tax_rate',
      'txid',
    ]);
    expect(sale?.lines).toEqual([
      { account_code: '1010', account_name: 'BSV wallet', account_type: 'asset', debit_minor: 1234, credit_minor: 0, memo: null },
      { account_code: '4000', account_name: 'Revenue', account_type: 'income', debit_minor: 0, credit_minor: 1150, memo: null },
      { account_code: '2100', account_name: 'Sales tax payable', account_type: 'liability', debit_minor: 0, credit_minor: 84, memo: null },
    ]);
  });

  it('keeps to the date range, both days included (UTC)', async () => {
    const inRange = async (query: string) =>
      ((await getLedger(gateway, shop.key, shop, query)).json() as Page).data.map((e) => e.occurred_at.slice(0, 10));
    expect(await inRange('?from=2026-03-03&to=2026-03-05')).toEqual(['2026-03-03', '2026-03-04', '2026-03-05']);
    expect(await inRange('?from=2026-03-31&to=2026-03-31')).toEqual(['2026-03-31']);
    expect(await inRange('?from=2026-03-07')).toEqual(['2026-03-07', '2026-03-31']);
    expect(await inRange('?to=2026-03-02')).toEqual(['2026-03-02']);
    expect(await inRange('?from=2026-04-01')).toEqual([]);
  });

  it('pages with limit and cursor, without gaps or duplicates', async () => {
    const all = ((await getLedger(gateway, shop.key, shop)).json() as Page).data.map((e) => e.id);
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page: Page = (await getLedger(gateway, shop.key, shop, `?limit=3${cursor ? `&cursor=${cursor}` : ''}`)).json();
      expect(page.data.length).toBeLessThanOrEqual(3);
      seen.push(...page.data.map((e) => e.id));
      cursor = page.next_cursor;
      pages++;
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen).toEqual(all);
  });

  it('is for admins: an admin reads it, staff get 403, and so does the owner of another organisation', async () => {
    const admin = await addMember(gateway, shop, 'admin');
    const staff = await addMember(gateway, shop, 'staff');
    const stranger = await onboard(gateway, uniqueName('Other Cafe'));
    expect((await getLedger(gateway, admin.key, shop)).statusCode).toBe(200);
    const asStaff = await getLedger(gateway, staff.key, shop);
    expectError(asStaff, 403, 'forbidden');
    const asStranger = await getLedger(gateway, stranger.key, shop, '?format=csv');
    expectError(asStranger, 403, 'forbidden');
    expect(asStranger.body).not.toContain('Order 1');
    expect((await getLedger(gateway, stranger.key, stranger)).json()).toEqual({ data: [], next_cursor: null });
  });

  it('takes the last date there is, 9999-12-31, as to: every entry from from on', async () => {
    const all = (await getLedger(gateway, shop.key, shop, '?limit=100')).json().data;
    const response = await getLedger(gateway, shop.key, shop, '?from=2026-03-01&to=9999-12-31&limit=100');
    expect(response.statusCode).toBe(200);
    expect(response.json().data).toEqual(all);
    expect((await getLedger(gateway, shop.key, shop, '?from=9999-12-31&to=9999-12-31')).json()).toEqual({ data: [], next_cursor: null });
  });

  it('answers 422 naming the field for a bad format, from after to, a date that is not one, an unknown parameter, and a bad limit', async () => {
    const cases: Array<[string, string]> = [
      ['?format=pdf', 'format'],
      ['?from=2026-03-05&to=2026-03-04', 'from'],
      ['?format=csv&from=2026-03-05&to=2026-03-04', 'from'],
      ['?from=2026-02-30', 'from'],
      ['?to=yesterday', 'to'],
      ['?limit=0', 'limit'],
      ['?limit=101', 'limit'],
      ['?from=0000-01-01', 'from'],
      ['?to=0000-12-31', 'to'],
      ['?form=2026-03-05', 'form'],
      ['?format=csv&until=2026-03-05', 'until'],
    ];
    for (const [query, field] of cases) {
      const response = await getLedger(gateway, shop.key, shop, query);
      expectError(response, 422, 'validation_failed');
      expect(response.json().error.details.field, query).toBe(field);
    }
  });

  it('answers 422 for a cursor it did not issue, and for limit or cursor on an export, which is always the whole range', async () => {
    expectError(await getLedger(gateway, shop.key, shop, '?cursor=not-a-cursor'), 422, 'validation_failed');
    const paged = await getLedger(gateway, shop.key, shop, '?format=csv&limit=2');
    expectError(paged, 422, 'validation_failed');
    expect(paged.json().error.message).toContain('whole date range');
  });

  it('answers 503 unavailable, not 500, when the books service is down', async () => {
    const down = await startTestGateway(SERVICES_DOWN);
    try {
      const owner = await onboard(down, uniqueName('Closed Books'));
      expectError(await getLedger(down, owner.key, owner), 503, 'unavailable');
      expectError(await getLedger(down, owner.key, owner, '?format=beancount'), 503, 'unavailable');
    } finally {
      await down.close();
    }
  });
});
