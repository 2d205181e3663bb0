import { z } from 'zod';
import { minorUnits, named } from '../routes/answer-schema.js';

/**
 * What the reports answer: the query they answer, echoed, and `data` rows with amounts in minor units
 * of the row's `currency`. Blue Bottle Cafe's first week of March is the example.
 */

const range = { from: z.string(), to: z.string(), time_zone: z.string() };
const EXAMPLE_RANGE = { from: '2026-03-01', to: '2026-03-07', time_zone: 'America/Los_Angeles' };

export const salesRow = z.object({
  period: z.string().describe('YYYY-MM-DD or YYYY-MM, local to time_zone'),
  currency: z.string(),
  orders: minorUnits,
  gross_minor: minorUnits,
  tax_minor: minorUnits,
  net_minor: minorUnits,
  refunds_minor: minorUnits,
  refunds_tax_minor: minorUnits,
  net_after_refunds_minor: minorUnits,
  gift_cards_sold_minor: minorUnits,
  tips_minor: minorUnits,
});
export type SalesRowAnswer = z.infer<typeof salesRow>;

export const salesReport = named('SalesReport', z.object({ ...range, period: z.enum(['day', 'month']), data: z.array(salesRow) }), {
  ...EXAMPLE_RANGE,
  period: 'day',
  data: [
    {
      period: '2026-03-02',
      currency: 'USD',
      orders: 84,
      gross_minor: 51_870,
      tax_minor: 3_505,
      net_minor: 48_365,
      refunds_minor: 617,
      refunds_tax_minor: 42,
      net_after_refunds_minor: 47_790,
      gift_cards_sold_minor: 5_000,
      tips_minor: 960,
    },
  ],
});

export const topItem = z.object({
  currency: z.string(),
  rank: z.number().int(),
  item_id: z.string().nullable().describe('null for an ad hoc line'),
  name: z.string(),
  quantity: minorUnits,
  gross_minor: minorUnits,
  tax_minor: minorUnits,
  refunded_quantity: minorUnits,
  refunded_minor: minorUnits,
});
export type TopItemAnswer = z.infer<typeof topItem>;

export const topItemsReport = named('TopItemsReport', z.object({ ...range, limit: z.number().int(), data: z.array(topItem) }), {
  ...EXAMPLE_RANGE,
  limit: 10,
  data: [
    {
      currency: 'USD',
      rank: 1,
      item_id: '1b7e3c9a-5d2f-4a8e-9c6b-0e4a2f8d6c31',
      name: 'Oat milk latte',
      quantity: 212,
      gross_minor: 130_804,
      tax_minor: 8_904,
      refunded_quantity: 1,
      refunded_minor: 617,
    },
  ],
});

export const busyHour = z.object({ currency: z.string(), hour: z.number().int(), orders: minorUnits, gross_minor: minorUnits });
export type BusyHourAnswer = z.infer<typeof busyHour>;

export const busyHoursReport = named('BusyHoursReport', z.object({ ...range, data: z.array(busyHour) }), {
  ...EXAMPLE_RANGE,
  data: [{ currency: 'USD', hour: 8, orders: 97, gross_minor: 59_849 }],
});

const accountFacts = {
  code: z.string(),
  name: z.string(),
  type: z.string().describe('asset, liability, equity, income or expense'),
  normal_balance: z.string().describe('debit or credit'),
};
const balanceEcho = {
  at: z.string().describe('The local date the balances are at, YYYY-MM-DD'),
  time_zone: z.string(),
  ends_before: z.string().describe('The instant (UTC) the balances end before'),
};
const EXAMPLE_ECHO = { at: '2026-03-07', time_zone: 'America/Los_Angeles', ends_before: '2026-03-08T08:00:00.000Z' };

export const trialBalanceRow = z.object({
  currency: z.string(),
  accounts: z.array(z.object({ ...accountFacts, debit_minor: minorUnits, credit_minor: minorUnits, balance_minor: minorUnits })),
  total_debit_minor: minorUnits,
  total_credit_minor: minorUnits,
});
export type TrialBalanceAnswer = z.infer<typeof trialBalanceRow>;

export const trialBalanceReport = named('TrialBalanceReport', z.object({ ...balanceEcho, data: z.array(trialBalanceRow) }), {
  ...EXAMPLE_ECHO,
  data: [
    {
      currency: 'USD',
      accounts: [
        {
          code: '1010',
          name: 'BSV wallet',
          type: 'asset',
          normal_balance: 'debit',
          debit_minor: 51_253,
          credit_minor: 0,
          balance_minor: 51_253,
        },
        {
          code: '2100',
          name: 'Sales tax payable',
          type: 'liability',
          normal_balance: 'credit',
          debit_minor: 0,
          credit_minor: 3_463,
          balance_minor: 3_463,
        },
        {
          code: '4000',
          name: 'Revenue',
          type: 'income',
          normal_balance: 'credit',
          debit_minor: 0,
          credit_minor: 48_365,
          balance_minor: 48_365,
        },
        { code: '4100', name: 'Refunds', type: 'expense', normal_balance: 'debit', debit_minor: 575, credit_minor: 0, balance_minor: 575 },
      ],
      total_debit_minor: 51_828,
      total_credit_minor: 51_828,
    },
  ],
});

export const accountBalancesRow = z.object({
  currency: z.string(),
  accounts: z.array(z.object({ ...accountFacts, debits_minor: minorUnits, credits_minor: minorUnits, balance_minor: minorUnits })),
});
export type AccountBalancesAnswer = z.infer<typeof accountBalancesRow>;

export const accountBalancesReport = named('AccountBalancesReport', z.object({ ...balanceEcho, data: z.array(accountBalancesRow) }), {
  ...EXAMPLE_ECHO,
  data: [
    {
      currency: 'USD',
      accounts: [
        {
          code: '1010',
          name: 'BSV wallet',
          type: 'asset',
          normal_balance: 'debit',
          debits_minor: 51_870,
          credits_minor: 617,
          balance_minor: 51_253,
        },
        {
          code: '4000',
          name: 'Revenue',
          type: 'income',
          normal_balance: 'credit',
          debits_minor: 0,
          credits_minor: 48_365,
          balance_minor: 48_365,
        },
      ],
    },
  ],
});
