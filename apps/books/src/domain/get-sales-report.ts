import type { GetSalesReportResponse } from '@ctk/proto/ctk/books/v1/books';
import { type Org, validate } from '@ctk/shared';
import { z } from 'zod';
import type { ReportRepository } from '../data/report-repository.js';
import { checkRange, MAX_DAYS, MAX_DAYS_BY_DAY, rangeFields } from './report-input.js';

const PERIODS = ['day', 'month'] as const;

const querySchema = z
  .object({
    ...rangeFields,
    period: z
      .string()
      .transform((period) => period || 'day')
      .pipe(z.enum(PERIODS, { error: `period must be one of ${PERIODS.join(', ')}` })),
  })
  .superRefine((query, context) => checkRange(query, query.period === 'day' ? MAX_DAYS_BY_DAY : MAX_DAYS, context));

/**
 * Sales per local day or month of the range and currency (see report-definitions.ts): every period,
 * zero rows included, for each currency with entries in the range; with the query as read, defaults applied.
 */
export async function getSalesReport(
  reports: ReportRepository,
  org: Org,
  input: z.input<typeof querySchema>,
): Promise<GetSalesReportResponse> {
  const query = validate(querySchema, input);
  const rows = await reports.sales(org.id, query, query.period);
  const { from, to, timeZone, period } = query;
  return {
    from,
    to,
    timeZone,
    period,
    rows: rows.map((row) => {
      const net = row.gross - row.tax;
      return {
        period: row.period,
        currency: row.currency,
        orders: row.orders,
        grossMinor: row.gross,
        taxMinor: row.tax,
        netMinor: net,
        refundsMinor: row.refunds,
        refundsTaxMinor: row.refundsTax,
        netAfterRefundsMinor: net - (row.refunds - row.refundsTax),
        giftCardsSoldMinor: row.giftCardsSold,
        tipsMinor: row.tips,
        refundsTipsMinor: row.refundsTips,
      };
    }),
  };
}
