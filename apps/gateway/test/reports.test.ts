import { PaymentEventType, Settlement, type LineItem } from '@ctk/proto/ctk/events/v1/payment_event';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, bearer, onboard, type Onboarded, type Gateway } from './harness.js';
import { paymentEvent, post, startLedgerStack } from './ledger-harness.js';
import { expectError, uniqueName } from './support.js';

const line = (itemId: string, name: string, quantity: bigint, totalMinor: bigint, taxMinor: bigint): LineItem => ({
  itemId,
  name,
  quantity,
  unitPriceMinor: (totalMinor - taxMinor) / quantity,
  taxMinor,
  totalMinor,
});

/** More than 2^53 satoshis: JSON shows it as the integer in a string. */
const HUGE = 10_000_000_000_000_000n;

/**
 * A $12.34 sale late on 2 March (UTC; 3 March in Tokyo), on 3 March a $5.00 card refund of one latte, a
 * $25.00 gift card sold in stablecoin and $10.75 of it spent, and on 4 March a sale of 10^16 satoshis.
 */
function shopEvents(organizationId: string) {
  const at = (iso: string) => new Date(`${iso}Z`);
  return [
    paymentEvent(organizationId, {
      occurredAt: at('2026-03-02T23:30:00'),
      amountMinor: 1234n,
      taxMinor: 84n,
      lines: [line('itm-latte', 'Latte', 2n, 1000n, 68n), line('', 'Cookie', 1n, 234n, 16n)],
    }),
    paymentEvent(organizationId, {
      type: PaymentEventType.PAYMENT_EVENT_TYPE_PAYMENT_REFUNDED,
      settlement: Settlement.SETTLEMENT_PROVIDER_CLEARING,
      occurredAt: at('2026-03-03T10:00:00'),
      amountMinor: 500n,
      taxMinor: 34n,
      lines: [line('itm-latte', 'Latte', 1n, 500n, 34n)],
    }),
    paymentEvent(organizationId, {
      type: PaymentEventType.PAYMENT_EVENT_TYPE_PREPAID_ISSUED,
      settlement: Settlement.SETTLEMENT_STABLECOIN,
      occurredAt: at('2026-03-03T11:00:00'),
      amountMinor: 2500n,
      taxMinor: 0n,
    }),
    paymentEvent(organizationId, {
      type: PaymentEventType.PAYMENT_EVENT_TYPE_PREPAID_REDEEMED,
      settlement: Settlement.SETTLEMENT_NONE,
      occurredAt: at('2026-03-03T12:00:00'),
      amountMinor: 1075n,
      taxMinor: 75n,
      lines: [line('itm-latte', 'Latte', 2n, 1075n, 75n)],
    }),
    paymentEvent(organizationId, {
      currency: 'BSV',
      occurredAt: at('2026-03-04T08:00:00'),
      amountMinor: HUGE,
      taxMinor: 0n,
      satoshis: HUGE,
      exchangeRate: '1',
    }),
  ];
}

const zeroDay = (period: string, currency: string) => ({
  period,
  currency,
  orders: 0,
  gross_minor: 0,
  tax_minor: 0,
  net_minor: 0,
  refunds_minor: 0,
  refunds_tax_minor: 0,
  net_after_refunds_minor: 0,
  gift_cards_sold_minor: 0,
  tips_minor: 0,
  refunds_tips_minor: 0,
});

describe('reports through the gateway and the books service over gRPC', () => {
  let stack: Awaited<ReturnType<typeof startLedgerStack>>;
  let gateway: Gateway;
  let shop: Onboarded;
  beforeAll(async () => {
    stack = await startLedgerStack();
    gateway = stack.gateway;
    shop = await onboard(gateway, uniqueName('Report Cafe'));
    await post(gateway, shopEvents(shop.orgId));
  });
  afterAll(async () => {
    await stack?.close();
  });

  const get = (report: string, query: string, key = shop.key) =>
    gateway.app.inject({ method: 'GET', url: `/api/v1/orgs/${shop.handle}/reports/${report}${query}`, headers: bearer(key) });

  it('gives sales per UTC day and currency, with the query it answers', async () => {
    const response = await get('sales', '?from=2026-03-02&to=2026-03-04');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      from: '2026-03-02',
      to: '2026-03-04',
      time_zone: 'UTC',
      period: 'day',
      data: [
        zeroDay('2026-03-02', 'BSV'),
        {
          period: '2026-03-02',
          currency: 'USD',
          orders: 1,
          gross_minor: 1234,
          tax_minor: 84,
          net_minor: 1150,
          refunds_minor: 0,
          refunds_tax_minor: 0,
          net_after_refunds_minor: 1150,
          gift_cards_sold_minor: 0,
          tips_minor: 0,
          refunds_tips_minor: 0,
        },
        zeroDay('2026-03-03', 'BSV'),
        {
          period: '2026-03-03',
          currency: 'USD',
          orders: 1,
          gross_minor: 1075,
          tax_minor: 75,
          net_minor: 1000,
          refunds_minor: 500,
          refunds_tax_minor: 34,
          net_after_refunds_minor: 534,
          gift_cards_sold_minor: 2500,
          tips_minor: 0,
          refunds_tips_minor: 0,
        },
        {
          period: '2026-03-04',
          currency: 'BSV',
          orders: 1,
          gross_minor: '10000000000000000',
          tax_minor: 0,
          net_minor: '10000000000000000',
          refunds_minor: 0,
          refunds_tax_minor: 0,
          net_after_refunds_minor: '10000000000000000',
          gift_cards_sold_minor: 0,
          tips_minor: 0,
          refunds_tips_minor: 0,
        },
        zeroDay('2026-03-04', 'USD'),
      ],
    });
  });

  it('gives sales per local day and per month in the time zone asked for', async () => {
    const tokyo = (await get('sales', '?from=2026-03-02&to=2026-03-03&time_zone=Asia/Tokyo')).json();
    expect(tokyo.data.filter((row: { currency: string }) => row.currency === 'USD')).toEqual([
      zeroDay('2026-03-02', 'USD'),
      {
        period: '2026-03-03',
        currency: 'USD',
        orders: 2,
        gross_minor: 2309,
        tax_minor: 159,
        net_minor: 2150,
        refunds_minor: 500,
        refunds_tax_minor: 34,
        net_after_refunds_minor: 1684,
        gift_cards_sold_minor: 2500,
        tips_minor: 0,
        refunds_tips_minor: 0,
      },
    ]);
    const months = (await get('sales', '?from=2026-02-01&to=2026-03-31&period=month&time_zone=America/New_York')).json();
    expect(
      months.data.map((row: { period: string; currency: string; orders: number; net_after_refunds_minor: number }) => [
        row.period,
        row.currency,
        row.orders,
        row.net_after_refunds_minor,
      ]),
    ).toEqual([
      ['2026-02', 'BSV', 0, 0],
      ['2026-02', 'USD', 0, 0],
      ['2026-03', 'BSV', 1, '10000000000000000'],
      ['2026-03', 'USD', 2, 1684],
    ]);
  });

  it('ranks top items net of refunded lines, per currency', async () => {
    const response = await get('top-items', '?from=2026-03-01&to=2026-03-31&limit=5');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      from: '2026-03-01',
      to: '2026-03-31',
      time_zone: 'UTC',
      limit: 5,
      data: [
        {
          currency: 'USD',
          rank: 1,
          item_id: 'itm-latte',
          name: 'Latte',
          quantity: 3,
          gross_minor: 1575,
          tax_minor: 109,
          refunded_quantity: 1,
          refunded_minor: 500,
        },
        {
          currency: 'USD',
          rank: 2,
          item_id: null,
          name: 'Cookie',
          quantity: 1,
          gross_minor: 234,
          tax_minor: 16,
          refunded_quantity: 0,
          refunded_minor: 0,
        },
      ],
    });
  });

  it('counts sales per local hour of the day', async () => {
    const response = await get('busy-hours', '?from=2026-03-01&to=2026-03-31&time_zone=Asia/Tokyo');
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.data).toHaveLength(48);
    expect(body.data.filter((h: { orders: number }) => h.orders > 0)).toEqual([
      { currency: 'BSV', hour: 17, orders: 1, gross_minor: '10000000000000000' },
      { currency: 'USD', hour: 8, orders: 1, gross_minor: 1234 },
      { currency: 'USD', hour: 21, orders: 1, gross_minor: 1075 },
    ]);
  });

  it('gives the trial balance at the end of a date: the whole chart, equal totals', async () => {
    const response = await get('trial-balance', '?at=2026-03-03');
    expect(response.statusCode).toBe(200);
    const account = (code: string, name: string, type: string, normal: string, debit: number, credit: number, balance: number) => ({
      code,
      name,
      type,
      normal_balance: normal,
      debit_minor: debit,
      credit_minor: credit,
      balance_minor: balance,
    });
    expect(response.json()).toEqual({
      at: '2026-03-03',
      time_zone: 'UTC',
      ends_before: '2026-03-04T00:00:00.000Z',
      data: [
        {
          currency: 'USD',
          accounts: [
            account('1010', 'BSV wallet', 'asset', 'debit', 1234, 0, 1234),
            account('1020', 'Provider clearing', 'asset', 'debit', 0, 500, -500),
            account('1030', 'Stablecoin', 'asset', 'debit', 2500, 0, 2500),
            account('2100', 'Sales tax payable', 'liability', 'credit', 0, 125, 125),
            account('2200', 'Loyalty liability', 'liability', 'credit', 0, 0, 0),
            account('2300', 'Gift card liability', 'liability', 'credit', 0, 1425, 1425),
            account('2350', 'Customer credits liability', 'liability', 'credit', 0, 0, 0),
            account('2400', 'Tips payable', 'liability', 'credit', 0, 0, 0),
            account('4000', 'Revenue', 'income', 'credit', 0, 2150, 2150),
            account('4100', 'Refunds', 'expense', 'debit', 466, 0, 466),
            account('4200', 'Loyalty rewards', 'expense', 'debit', 0, 0, 0),
            account('5100', 'Referral commissions', 'expense', 'debit', 0, 0, 0),
          ],
          total_debit_minor: 4200,
          total_credit_minor: 4200,
        },
      ],
    });
    expect((await get('trial-balance', '?at=2026-03-01')).json()).toEqual({
      at: '2026-03-01',
      time_zone: 'UTC',
      ends_before: '2026-03-02T00:00:00.000Z',
      data: [],
    });
  });

  it('gives account balances: what was posted to each account and its balance on its normal side', async () => {
    const response = await get('account-balances', '?at=2026-03-04&time_zone=America/New_York');
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({ at: '2026-03-04', time_zone: 'America/New_York', ends_before: '2026-03-05T05:00:00.000Z' });
    expect(body.data.map((b: { currency: string }) => b.currency)).toEqual(['BSV', 'USD']);
    expect(body.data[0].accounts.filter((a: { debits_minor: number; credits_minor: number }) => a.debits_minor || a.credits_minor)).toEqual(
      [
        {
          code: '1010',
          name: 'BSV wallet',
          type: 'asset',
          normal_balance: 'debit',
          debits_minor: '10000000000000000',
          credits_minor: 0,
          balance_minor: '10000000000000000',
        },
        {
          code: '4000',
          name: 'Revenue',
          type: 'income',
          normal_balance: 'credit',
          debits_minor: 0,
          credits_minor: '10000000000000000',
          balance_minor: '10000000000000000',
        },
      ],
    );
    expect(body.data[1].accounts.find((a: { code: string }) => a.code === '2300')).toEqual({
      code: '2300',
      name: 'Gift card liability',
      type: 'liability',
      normal_balance: 'credit',
      debits_minor: 1075,
      credits_minor: 2500,
      balance_minor: 1425,
    });
  });

  it('are built under the reports capability, which the organisation has set up with its first entry', async () => {
    type Capability = { id: string; endpoints: Array<{ path: string }>; note?: string; set_up?: boolean };
    const reports = (body: { rungs: Array<{ capabilities: Capability[] }> }) =>
      body.rungs.flatMap((r) => r.capabilities).find((c) => c.id === 'reports');
    const descriptor = reports((await gateway.app.inject({ method: 'GET', url: '/api/v1/capabilities' })).json());
    expect(descriptor?.endpoints.map((e) => e.path.split('/').pop())).toEqual([
      'sales',
      'top-items',
      'busy-hours',
      'trial-balance',
      'account-balances',
    ]);
    expect(descriptor?.note).toBeUndefined();
    const mine = await gateway.app.inject({ method: 'GET', url: `/api/v1/orgs/${shop.handle}/capabilities`, headers: bearer(shop.key) });
    expect(reports(mine.json())).toMatchObject({ set_up: true, next_step: null });
  });

  it("is for admins: an admin reads every report, staff and another organisation's owner get 403", async () => {
    const admin = await addMember(gateway, shop, 'admin');
    const staff = await addMember(gateway, shop, 'staff');
    const stranger = await onboard(gateway, uniqueName('Other Cafe'));
    for (const report of ['sales', 'top-items', 'busy-hours', 'trial-balance', 'account-balances']) {
      const range = report.includes('balance') ? '?at=2026-03-31' : '?from=2026-03-01&to=2026-03-31';
      expect({ report, status: (await get(report, range, admin.key)).statusCode }).toEqual({ report, status: 200 });
      expectError(await get(report, range, staff.key), 403, 'forbidden');
      const asStranger = await get(report, range, stranger.key);
      expectError(asStranger, 403, 'forbidden');
      expect(asStranger.body).not.toContain('Latte');
    }
  });

  it('takes the last date there is, 9999-12-31: its end is in year 10000', async () => {
    const response = await get('trial-balance', '?at=9999-12-31&time_zone=Etc/GMT%2B5');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ at: '9999-12-31', time_zone: 'Etc/GMT+5', ends_before: '+010000-01-01T05:00:00.000Z' });
    expect((await get('sales', '?from=9999-12-31&to=9999-12-31')).json()).toMatchObject({ data: [] });
  });

  it('answers 422 naming the field for a bad time zone, bad dates, a range too long, a bad period or limit, an unknown parameter', async () => {
    const cases: Array<[string, string, string]> = [
      ['sales', '?from=2026-03-01&to=2026-03-31&time_zone=Mars/Olympus', 'time_zone'],
      ['busy-hours', '?from=2026-03-01&to=2026-03-31&time_zone=%2B01:00', 'time_zone'],
      ['trial-balance', '?time_zone=Europe/Atlantis', 'time_zone'],
      ['sales', '?to=2026-03-31', 'from'],
      ['sales', '?from=2026-03-01', 'to'],
      ['top-items', '?from=2026-02-30&to=2026-03-31', 'from'],
      ['busy-hours', '?from=2026-04-01&to=2026-03-31', 'from'],
      ['sales', '?from=2025-01-01&to=2026-01-02', 'from'],
      ['top-items', '?from=2010-01-01&to=2026-01-01', 'from'],
      ['sales', '?from=2026-03-01&to=2026-03-31&period=week', 'period'],
      ['top-items', '?from=2026-03-01&to=2026-03-31&limit=0', 'limit'],
      ['top-items', '?from=2026-03-01&to=2026-03-31&limit=101', 'limit'],
      ['account-balances', '?at=yesterday', 'at'],
      ['sales', '?from=0000-01-01&to=0000-01-02', 'from'],
      ['busy-hours', '?from=2026-03-01&to=0000-01-01', 'to'],
      ['trial-balance', '?at=0000-01-01', 'at'],
      ['sales', '?from=2026-03-01&to=2026-03-31&form=2026-03-02', 'form'],
      ['top-items', '?from=2026-03-01&to=2026-03-31&limits=5', 'limits'],
      ['busy-hours', '?from=2026-03-01&to=2026-03-31&timezone=Asia/Tokyo', 'timezone'],
      ['account-balances', '?date=2026-03-01', 'date'],
    ];
    for (const [report, query, field] of cases) {
      const response = await get(report, query);
      expectError(response, 422, 'validation_failed');
      expect(response.json().error.details.field, `${report}${query}`).toBe(field);
    }
  });
});
