import type { GetBusyHoursResponse } from '@ctk/proto/ctk/books/v1/books';
import { type Org, validate } from '@ctk/shared';
import { z } from 'zod';
import type { ReportRepository } from '../data/report-repository.js';
import { checkRange, MAX_DAYS, rangeFields } from './report-input.js';

const querySchema = z.object(rangeFields).superRefine((query, context) => checkRange(query, MAX_DAYS, context));

/**
 * Sales per local day of the week and hour (168 rows for each currency with sales) over the range, and per
 * hour of the day (24 rows, each the sum of its seven); with the query as read.
 */
export async function getBusyHours(reports: ReportRepository, org: Org, input: z.input<typeof querySchema>): Promise<GetBusyHoursResponse> {
  const query = validate(querySchema, input);
  const rows = await reports.busyHours(org.id, query);
  const weekHours = rows.map((row) => ({
    currency: row.currency,
    weekday: row.weekday,
    hour: row.hour,
    orders: row.orders,
    grossMinor: row.gross,
  }));
  const hours = new Map<string, { currency: string; hour: number; orders: bigint; grossMinor: bigint }>();
  for (const row of weekHours) {
    const key = `${row.currency} ${row.hour}`;
    const sum = hours.get(key) ?? { currency: row.currency, hour: row.hour, orders: 0n, grossMinor: 0n };
    hours.set(key, { ...sum, orders: sum.orders + row.orders, grossMinor: sum.grossMinor + row.grossMinor });
  }
  // The rows come by currency, weekday, then hour: the sums are by currency, then hour.
  return { from: query.from, to: query.to, timeZone: query.timeZone, hours: [...hours.values()], weekHours };
}
