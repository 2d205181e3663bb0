import { randomUUID } from 'node:crypto';
import type { OrgRef } from '@ctk/proto/ctk/common/v1/common';
import { PaymentEventType, Settlement } from '@ctk/proto/ctk/events/v1/payment_event';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBalanceRepository } from '../src/data/balance-repository.js';
import { createReportRepository } from '../src/data/report-repository.js';
import { reportEvents } from './fixtures/report-events.js';
import { newEvent, newOrg, openTestJournal, startFedBooks } from './support.js';

const {
  PAYMENT_EVENT_TYPE_PAYMENT_REFUNDED: REFUNDED,
  PAYMENT_EVENT_TYPE_PREPAID_ISSUED: ISSUED,
  PAYMENT_EVENT_TYPE_PREPAID_REDEEMED: REDEEMED,
  PAYMENT_EVENT_TYPE_PREPAID_RESTORED: RESTORED,
} = PaymentEventType;

type Books = Awaited<ReturnType<typeof startFedBooks>>;

/** A sales row as [period, currency, orders, gross, tax, net, refunds, refunds tax, net after refunds, gift cards sold]. */
type Sales = [string, string, number, number, number, number, number, number, number, number];
const zero = (period: string, currency: string): Sales => [period, currency, 0, 0, 0, 0, 0, 0, 0, 0];

// One books for the file. `org`'s entries (fixtures/report-events.ts) are posted once, before every test, and
// only read; a test that posts makes an organisation of its own, so no test depends on another's order.
describe('reports from the journal, over gRPC', () => {
  let books: Books;
  let org: OrgRef;
  beforeAll(async () => {
    books = await startFedBooks();
    org = newOrg();
    await books.post(reportEvents(org.id ?? ''));
    // Another organisation's sale on the same days never shows in the first one's reports.
    await books.post([newEvent(newOrg().id ?? '', { occurredAt: new Date('2026-03-02T12:00:00Z'), amountMinor: 99_999n })]);
  });
  afterAll(() => books.close());

  const sales = async (query: { from: string; to: string; timeZone?: string; period?: string }, of = org): Promise<Sales[]> =>
    (await books.client.getSalesReport({ org: of, ...query })).rows.map(
      (r) =>
        [
          r.period,
          r.currency,
          ...[
            r.orders,
            r.grossMinor,
            r.taxMinor,
            r.netMinor,
            r.refundsMinor,
            r.refundsTaxMinor,
            r.netAfterRefundsMinor,
            r.giftCardsSoldMinor,
          ].map(Number),
        ] as Sales,
    );

  describe('sales', () => {
    it('gives every UTC day of the range per currency, days without sales at zero', async () => {
      expect(await sales({ from: '2026-03-01', to: '2026-03-04' })).toEqual([
        zero('2026-03-01', 'JPY'),
        ['2026-03-01', 'USD', 1, 1075, 75, 1000, 0, 0, 1000, 0],
        zero('2026-03-02', 'JPY'),
        ['2026-03-02', 'USD', 1, 2000, 140, 1860, 375, 25, 1510, 5000],
        ['2026-03-03', 'JPY', 1, 1500, 0, 1500, 0, 0, 1500, 0],
        ['2026-03-03', 'USD', 1, 1075, 75, 1000, 0, 0, 1000, 0],
        zero('2026-03-04', 'JPY'),
        zero('2026-03-04', 'USD'),
      ]);
    });

    it('puts each entry on its local day in the time zone asked for', async () => {
      expect(await sales({ from: '2026-03-01', to: '2026-03-03', timeZone: 'America/New_York' })).toEqual([
        zero('2026-03-01', 'JPY'),
        ['2026-03-01', 'USD', 2, 3075, 215, 2860, 0, 0, 2860, 0],
        zero('2026-03-02', 'JPY'),
        ['2026-03-02', 'USD', 0, 0, 0, 0, 375, 25, -350, 5000],
        ['2026-03-03', 'JPY', 1, 1500, 0, 1500, 0, 0, 1500, 0],
        ['2026-03-03', 'USD', 1, 1075, 75, 1000, 0, 0, 1000, 0],
      ]);
      // Local midnight bounds the range: 2 March in Tokyo ends at 15:00 UTC, when the refund happened.
      expect(await sales({ from: '2026-03-02', to: '2026-03-02', timeZone: 'Asia/Tokyo' })).toEqual([
        ['2026-03-02', 'USD', 2, 3075, 215, 2860, 0, 0, 2860, 0],
      ]);
    });

    it('gives months, an entry late on 31 March in New York being April in UTC', async () => {
      expect(await sales({ from: '2026-03-01', to: '2026-04-30', period: 'month' })).toEqual([
        ['2026-03', 'JPY', 1, 1500, 0, 1500, 0, 0, 1500, 0],
        ['2026-03', 'USD', 3, 4150, 290, 3860, 375, 25, 3510, 5000],
        zero('2026-04', 'JPY'),
        ['2026-04', 'USD', 2, 900, 40, 860, 100, 0, 760, 0],
      ]);
      expect(await sales({ from: '2026-03-01', to: '2026-04-30', period: 'month', timeZone: 'America/New_York' })).toEqual([
        ['2026-03', 'JPY', 1, 1500, 0, 1500, 0, 0, 1500, 0],
        ['2026-03', 'USD', 4, 4450, 290, 4160, 375, 25, 3810, 5000],
        zero('2026-04', 'JPY'),
        ['2026-04', 'USD', 1, 600, 40, 560, 100, 0, 460, 0],
      ]);
    });

    it('is empty for a range without entries, and for an organisation without any', async () => {
      expect(await sales({ from: '2026-05-01', to: '2026-05-31' })).toEqual([]);
      expect(await sales({ from: '2026-03-01', to: '2026-03-31' }, newOrg())).toEqual([]);
    });
  });

  describe('top items', () => {
    const topItems = async (query: { from: string; to: string; timeZone?: string; limit?: number }) =>
      (await books.client.getTopItems({ org, ...query })).items.map((i) => [
        i.currency,
        i.rank,
        i.itemId,
        i.name,
        ...[i.quantity, i.grossMinor, i.taxMinor, i.refundedQuantity, i.refundedMinor].map(Number),
      ]);

    it("ranks items by what they brought in, net of refunded lines, by item id or an ad hoc line's name, per currency", async () => {
      expect(await topItems({ from: '2026-03-01', to: '2026-03-31' })).toEqual([
        ['JPY', 1, undefined, 'Matcha', 3, 1500, 0, 0, 0],
        ['USD', 1, 'itm-coffee', 'Flat white', 5, 1875, 125, 1, 375],
        ['USD', 2, 'itm-tea', 'Tea', 3, 1575, 115, 0, 0],
        ['USD', 3, undefined, 'Muffin', 1, 325, 25, 0, 0],
      ]);
    });

    it('keeps to the limit per currency and to local dates', async () => {
      expect(await topItems({ from: '2026-03-01', to: '2026-03-31', limit: 1 })).toEqual([
        ['JPY', 1, undefined, 'Matcha', 3, 1500, 0, 0, 0],
        ['USD', 1, 'itm-coffee', 'Flat white', 5, 1875, 125, 1, 375],
      ]);
      // In New York the April 1st (UTC) muffin was sold on 31 March: the two ad hoc muffins add up.
      expect(await topItems({ from: '2026-03-31', to: '2026-03-31', timeZone: 'America/New_York' })).toEqual([
        ['USD', 1, undefined, 'Muffin', 1, 300, 0, 0, 0],
      ]);
      expect(
        (await topItems({ from: '2026-03-01', to: '2026-03-31', timeZone: 'America/New_York' })).find((i) => i[3] === 'Muffin'),
      ).toEqual(['USD', 3, undefined, 'Muffin', 2, 625, 25, 0, 0]);
    });
  });

  describe('busy hours', () => {
    const busy = async (timeZone: string) => {
      const { hours, weekHours } = await books.client.getBusyHours({ org, from: '2026-03-01', to: '2026-04-30', timeZone });
      expect(hours.map((h) => [h.currency, h.hour])).toEqual(
        ['JPY', 'USD'].flatMap((c) => Array.from({ length: 24 }, (_, hour) => [c, hour])),
      );
      // By day of the week too: 7 x 24 cells per currency, whose sums are the hours'.
      expect(weekHours.map((h) => [h.currency, h.weekday, h.hour])).toEqual(
        ['JPY', 'USD'].flatMap((c) => Array.from({ length: 168 }, (_, cell) => [c, Math.floor(cell / 24) + 1, cell % 24])),
      );
      for (const hour of hours) {
        const cells = weekHours.filter((h) => h.currency === hour.currency && h.hour === hour.hour);
        expect([cells.reduce((sum, h) => sum + h.orders, 0n), cells.reduce((sum, h) => sum + h.grossMinor, 0n)]).toEqual([
          hour.orders,
          hour.grossMinor,
        ]);
      }
      return hours.filter((h) => h.orders > 0n).map((h) => [h.currency, h.hour, Number(h.orders), Number(h.grossMinor)]);
    };

    it('counts sales per local hour of the day, 24 hours per currency', async () => {
      expect(await busy('UTC')).toEqual([
        ['JPY', 10, 1, 1500],
        ['USD', 2, 1, 300],
        ['USD', 3, 1, 2000],
        ['USD', 9, 1, 1075],
        ['USD', 12, 1, 600],
        ['USD', 23, 1, 1075],
      ]);
      // New York is five hours behind UTC until 8 March, four after.
      expect(await busy('America/New_York')).toEqual([
        ['JPY', 5, 1, 1500],
        ['USD', 4, 1, 1075],
        ['USD', 8, 1, 600],
        ['USD', 18, 1, 1075],
        ['USD', 22, 2, 2300],
      ]);
    });
  });

  describe('trial balance', () => {
    /** [code, debits, credits, debit balance, credit balance, balance] per account, and the two totals, per currency. */
    const trialBalance = async (at: string, timeZone = '') => {
      const response = await books.client.getTrialBalance({ org, at, timeZone });
      return {
        endsBefore: response.endsBefore,
        balances: response.balances.map((b) => ({
          currency: b.currency,
          accounts: b.accounts.map((a) => [
            a.code,
            ...[a.debitsMinor, a.creditsMinor, a.debitBalanceMinor, a.creditBalanceMinor, a.balanceMinor].map(Number),
          ]),
          totals: [Number(b.totalDebitMinor), Number(b.totalCreditMinor)],
        })),
      };
    };

    it('is empty before the first entry', async () => {
      expect(await trialBalance('2026-02-28')).toEqual({ endsBefore: '2026-03-01T00:00:00.000Z', balances: [] });
    });

    it("lists the whole chart at the end of a UTC day, totals equal, balances on each account's normal side", async () => {
      expect(await trialBalance('2026-03-02')).toEqual({
        endsBefore: '2026-03-03T00:00:00.000Z',
        balances: [
          {
            currency: 'USD',
            accounts: [
              ['1010', 3075, 375, 2700, 0, 2700],
              ['1020', 5000, 0, 5000, 0, 5000],
              ['1030', 0, 0, 0, 0, 0],
              ['2100', 25, 215, 0, 190, 190],
              ['2200', 0, 0, 0, 0, 0],
              ['2300', 0, 5000, 0, 5000, 5000],
              ['2350', 0, 0, 0, 0, 0],
              ['2400', 0, 0, 0, 0, 0],
              ['4000', 0, 2860, 0, 2860, 2860],
              ['4100', 350, 0, 350, 0, 350],
              ['4200', 0, 0, 0, 0, 0],
              ['5100', 0, 0, 0, 0, 0],
            ],
            totals: [8050, 8050],
          },
        ],
      });
    });

    it('ends the date at local midnight of the time zone asked for', async () => {
      const tokyo = await trialBalance('2026-03-02', 'Asia/Tokyo');
      expect(tokyo.endsBefore).toBe('2026-03-02T15:00:00.000Z');
      expect(tokyo.balances.map((b) => [b.currency, b.accounts.filter((a) => a[1] || a[2]), b.totals])).toEqual([
        [
          'USD',
          [
            ['1010', 3075, 0, 3075, 0, 3075],
            ['2100', 0, 215, 0, 215, 215],
            ['4000', 0, 2860, 0, 2860, 2860],
          ],
          [3075, 3075],
        ],
      ]);
    });

    it('keeps each currency apart once there are several', async () => {
      const { balances } = await trialBalance('2026-04-30');
      expect(balances.map((b) => b.currency)).toEqual(['JPY', 'USD']);
      expect(balances[0]?.accounts.filter((a) => a[1] || a[2])).toEqual([
        ['1010', 1500, 0, 1500, 0, 1500],
        ['4000', 0, 1500, 0, 1500, 1500],
      ]);
      expect(balances[0]?.totals).toEqual([1500, 1500]);
      expect(balances[1]?.accounts).toEqual([
        ['1010', 3375, 375, 3000, 0, 3000],
        ['1020', 5000, 0, 5000, 0, 5000],
        ['1030', 600, 100, 500, 0, 500],
        ['2100', 25, 330, 0, 305, 305],
        ['2200', 0, 0, 0, 0, 0],
        ['2300', 1075, 5000, 0, 3925, 3925],
        ['2350', 0, 0, 0, 0, 0],
        ['2400', 0, 0, 0, 0, 0],
        ['4000', 0, 4720, 0, 4720, 4720],
        ['4100', 450, 0, 450, 0, 450],
        ['4200', 0, 0, 0, 0, 0],
        ['5100', 0, 0, 0, 0, 0],
      ]);
      expect(balances[1]?.totals).toEqual([8950, 8950]);
    });

    it('shows tips on 2400 Tips payable, a liability, and the sales report shows them apart from sales', async () => {
      const tipped = newOrg();
      const at = (hour: number) => new Date(Date.UTC(2026, 5, 1, hour));
      await books.post([
        newEvent(tipped.id ?? '', { occurredAt: at(9), amountMinor: 1275n, taxMinor: 75n, tipMinor: 200n }),
        newEvent(tipped.id ?? '', { occurredAt: at(10), amountMinor: 1075n, taxMinor: 75n }),
      ]);
      const { balances } = await books.client.getTrialBalance({ org: tipped, at: '2026-06-01' });
      const nonZero = balances[0]?.accounts.filter((a) => a.debitsMinor || a.creditsMinor);
      expect(nonZero?.map((a) => [a.code, a.name, a.type, Number(a.debitsMinor), Number(a.creditsMinor), Number(a.balanceMinor)])).toEqual([
        ['1010', 'BSV wallet', 'asset', 2350, 0, 2350],
        ['2100', 'Sales tax payable', 'liability', 0, 150, 150],
        ['2400', 'Tips payable', 'liability', 0, 200, 200],
        ['4000', 'Revenue', 'income', 0, 2000, 2000],
      ]);
      expect([balances[0]?.totalDebitMinor, balances[0]?.totalCreditMinor]).toEqual([2350n, 2350n]);
      const [row] = (await books.client.getSalesReport({ org: tipped, from: '2026-06-01', to: '2026-06-01' })).rows;
      expect(row).toMatchObject({
        orders: 2n,
        grossMinor: 2150n,
        taxMinor: 150n,
        netMinor: 2000n,
        netAfterRefundsMinor: 2000n,
        tipsMinor: 200n,
      });
      const { hours, weekHours } = await books.client.getBusyHours({ org: tipped, from: '2026-06-01', to: '2026-06-01' });
      expect(hours.filter((h) => h.orders > 0n).map((h) => [h.hour, Number(h.grossMinor)])).toEqual([
        [9, 1075],
        [10, 1075],
      ]);
      // 1 June 2026 is a Monday.
      expect(weekHours.filter((h) => h.orders > 0n).map((h) => [h.weekday, h.hour, Number(h.grossMinor)])).toEqual([
        [1, 9, 1075],
        [1, 10, 1075],
      ]);
    });

    it('shows a refund of part of a paid order apart, with its tax and its share of the tip, and the books still balance', async () => {
      const shop = newOrg();
      const order = randomUUID();
      const at = (hour: number) => new Date(Date.UTC(2026, 7, 3, hour));
      await books.post([
        newEvent(shop.id ?? '', { sourceId: order, occurredAt: at(9), amountMinor: 1275n, taxMinor: 75n, tipMinor: 200n }),
        // A third of it refunded: 425, of which 25 tax and 66 tip (decision 0033).
        newEvent(shop.id ?? '', { type: REFUNDED, sourceId: order, occurredAt: at(10), amountMinor: 425n, taxMinor: 25n, tipMinor: 66n }),
      ]);
      const [row] = (await books.client.getSalesReport({ org: shop, from: '2026-08-03', to: '2026-08-03' })).rows;
      expect(row).toMatchObject({
        orders: 1n,
        grossMinor: 1075n,
        taxMinor: 75n,
        refundsMinor: 425n - 66n,
        refundsTaxMinor: 25n,
        netAfterRefundsMinor: 1075n - 75n - (359n - 25n),
        tipsMinor: 200n,
        refundsTipsMinor: 66n,
      });
      const { balances } = await books.client.getTrialBalance({ org: shop, at: '2026-08-03' });
      const nonZero = balances[0]?.accounts.filter((a) => a.debitsMinor || a.creditsMinor);
      expect(nonZero?.map((a) => [a.code, Number(a.debitsMinor), Number(a.creditsMinor)])).toEqual([
        ['1010', 1275, 425],
        ['2100', 25, 75],
        ['2400', 66, 200],
        ['4000', 0, 1000],
        ['4100', 334, 0],
      ]);
      expect(balances[0]?.totalDebitMinor).toBe(balances[0]?.totalCreditMinor);
    });

    it('counts an order paid by a gift card and money once, and a gift card use undone as a refund, in reports and balances', async () => {
      const shop = newOrg();
      const [paidInParts, cancelled] = [randomUUID(), randomUUID()];
      const at = (hour: number) => new Date(Date.UTC(2026, 6, 1, hour));
      const lines = [{ itemId: '', name: 'Lunch', quantity: 1n, unitPriceMinor: 922n, taxMinor: 78n, totalMinor: 1000n }];
      const none = { settlement: Settlement.SETTLEMENT_NONE, txid: '' };
      await books.post([
        newEvent(shop.id ?? '', { type: ISSUED, occurredAt: at(8), amountMinor: 2000n, taxMinor: 0n }),
        newEvent(shop.id ?? '', {
          type: REDEEMED,
          ...none,
          sourceId: paidInParts,
          occurredAt: at(9),
          amountMinor: 400n,
          taxMinor: 28n,
          tipMinor: 40n,
        }),
        newEvent(shop.id ?? '', {
          sourceId: paidInParts,
          occurredAt: at(9),
          amountMinor: 700n,
          taxMinor: 50n,
          tipMinor: 60n,
          lines,
          linesOfWholeOrder: true,
        }),
        newEvent(shop.id ?? '', { type: REDEEMED, ...none, sourceId: cancelled, occurredAt: at(10), amountMinor: 300n, taxMinor: 21n }),
        newEvent(shop.id ?? '', { type: RESTORED, ...none, sourceId: cancelled, occurredAt: at(11), amountMinor: 300n, taxMinor: 21n }),
      ]);
      const [row] = (await books.client.getSalesReport({ org: shop, from: '2026-07-01', to: '2026-07-01' })).rows;
      expect(row).toMatchObject({
        orders: 2n,
        grossMinor: 1300n,
        taxMinor: 99n,
        refundsMinor: 300n,
        refundsTaxMinor: 21n,
        netAfterRefundsMinor: 1300n - 99n - (300n - 21n),
        giftCardsSoldMinor: 2000n,
        tipsMinor: 100n,
      });
      const { hours } = await books.client.getBusyHours({ org: shop, from: '2026-07-01', to: '2026-07-01' });
      expect(hours.filter((h) => h.orders > 0n).map((h) => [h.hour, Number(h.orders)])).toEqual([
        [9, 1],
        [10, 1],
      ]);
      const { items } = await books.client.getTopItems({ org: shop, from: '2026-07-01', to: '2026-07-01' });
      expect(items.map((item) => [item.name, Number(item.quantity), Number(item.grossMinor)])).toEqual([['Lunch', 1, 1000]]);
      const { balances } = await books.client.getTrialBalance({ org: shop, at: '2026-07-01' });
      const balance = (code: string) => Number(balances[0]?.accounts.find((a) => a.code === code)?.balanceMinor);
      // The card: 2000 sold, 400 spent, 300 spent and given back.
      expect([balance('2300'), balance('4000'), balance('4100'), balance('2100'), balance('2400')]).toEqual([
        1600,
        922 + 279,
        279,
        78,
        100,
      ]);
      expect(balances[0]?.totalDebitMinor).toBe(balances[0]?.totalCreditMinor);
    });

    it('ends the last day it takes, 9999-12-31, in year 10000', async () => {
      expect((await trialBalance('9999-12-31')).endsBefore).toBe('+010000-01-01T00:00:00.000Z');
      expect((await trialBalance('9999-12-31', 'Etc/GMT+5')).endsBefore).toBe('+010000-01-01T05:00:00.000Z');
      expect((await trialBalance('0001-01-01', 'Etc/GMT-9')).endsBefore).toBe('0001-01-01T15:00:00.000Z');
    });

    it('is at today in the time zone when no date is given', async () => {
      const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Pacific/Kiritimati' }).format(new Date());
      expect((await books.client.getTrialBalance({ org, timeZone: 'Pacific/Kiritimati' })).at).toBe(today);
    });
  });

  describe('bad input', () => {
    const range = { from: '2026-03-01', to: '2026-03-31' };
    it.each([
      ['an unknown time zone', () => books.client.getSalesReport({ org, ...range, timeZone: 'Mars/Olympus' }), 'time_zone'],
      ['an offset instead of a time zone', () => books.client.getBusyHours({ org, ...range, timeZone: '+01:00' }), 'time_zone'],
      ['a from that is not a date', () => books.client.getTopItems({ org, ...range, from: '2026-3-1' }), 'from'],
      ['no to', () => books.client.getSalesReport({ org, from: '2026-03-01' }), 'to'],
      ['a from after to', () => books.client.getSalesReport({ org, from: '2026-04-01', to: '2026-03-31' }), 'from'],
      ['more than 366 days by day', () => books.client.getSalesReport({ org, from: '2025-01-01', to: '2026-01-02' }), 'from'],
      [
        'more than 3660 days by month',
        () => books.client.getSalesReport({ org, from: '2010-01-01', to: '2026-01-01', period: 'month' }),
        'from',
      ],
      ['a period that is not day or month', () => books.client.getSalesReport({ org, ...range, period: 'week' }), 'period'],
      ['a limit over 100', () => books.client.getTopItems({ org, ...range, limit: 101 }), 'limit'],
      ['a trial balance date that is not a date', () => books.client.getTrialBalance({ org, at: 'yesterday' }), 'at'],
      ['a trial balance in an unknown time zone', () => books.client.getTrialBalance({ org, timeZone: 'Europe/Atlantis' }), 'time_zone'],
      [
        'a from in year 0, which PostgreSQL has no day of',
        () => books.client.getSalesReport({ org, from: '0000-01-01', to: '0000-01-02' }),
        'from',
      ],
      ['busy hours to a day in year 0', () => books.client.getBusyHours({ org, from: '0000-01-01', to: '0000-01-01' }), 'from'],
      ['a trial balance at a day in year 0', () => books.client.getTrialBalance({ org, at: '0000-01-01' }), 'at'],
    ])('rejects %s as validation_failed naming the field', async (_, call, field) => {
      await expect(call()).rejects.toMatchObject({ code: 'validation_failed', details: { field } });
    });

    it('accepts 366 days by day and 3660 by month, answering every period of them', async () => {
      // 2025-04-30 to 2026-04-30 is 366 days: a row per day and currency, the fixture's sales among them.
      const byDay = await sales({ from: '2025-04-30', to: '2026-04-30' });
      expect(byDay).toHaveLength(366 * 2);
      expect(byDay[0]).toEqual(zero('2025-04-30', 'JPY'));
      expect(byDay.at(-1)).toEqual(zero('2026-04-30', 'USD'));
      const grossOf = (rows: Sales[], currency: string) => rows.filter((row) => row[1] === currency).reduce((sum, row) => sum + row[3], 0);
      expect([grossOf(byDay, 'JPY'), grossOf(byDay, 'USD')]).toEqual([1500, 4150 + 900]);
      // 2016-04-23 to 2026-04-30 is 3660 days: 121 months per currency, the last two as the month report gives them.
      const byMonth = await sales({ from: '2016-04-23', to: '2026-04-30', period: 'month' });
      expect(byMonth).toHaveLength(121 * 2);
      expect(byMonth[0]).toEqual(zero('2016-04', 'JPY'));
      expect(byMonth.slice(-4)).toEqual([
        ['2026-03', 'JPY', 1, 1500, 0, 1500, 0, 0, 1500, 0],
        ['2026-03', 'USD', 3, 4150, 290, 3860, 375, 25, 3510, 5000],
        zero('2026-04', 'JPY'),
        ['2026-04', 'USD', 2, 900, 40, 860, 100, 0, 760, 0],
      ]);
      await expect(books.client.getSalesReport({ org, from: '2016-04-22', to: '2026-04-30', period: 'month' })).rejects.toMatchObject({
        code: 'validation_failed',
        details: { field: 'from' },
      });
    });

    it('rejects a report that names no organisation as a bad request', async () => {
      await expect(books.client.getTopItems({ ...range })).rejects.toMatchObject({ code: 'bad_request' });
    });
  });
});

describe('a time zone the database does not know', () => {
  it('is answered validation_failed naming time_zone, even past the name check', async () => {
    const journal = await openTestJournal();
    try {
      const range = { from: '2026-03-01', to: '2026-03-31', timeZone: 'Mars/Olympus' };
      const organizationId = newOrg().id ?? '';
      const expected = { code: 'validation_failed', details: { field: 'time_zone' } };
      await expect(createReportRepository(journal.prisma).busyHours(organizationId, range)).rejects.toMatchObject(expected);
      await expect(
        createBalanceRepository(journal.prisma).postedBefore(organizationId, '2026-03-01', 'Mars/Olympus'),
      ).rejects.toMatchObject(expected);
    } finally {
      await journal.close();
    }
  });
});
