import type { GetBusyHoursResponse } from '@ctk/proto/ctk/books/v1/books';
import { type Org, validate } from '@ctk/shared';
import { z } from 'zod';
import type { ReportRepository } from '../data/report-repository.js';
import { checkRange, MAX_DAYS, rangeFields } from './report-input.js';

const querySchema = z.object(rangeFields).superRefine((query, context) => checkRange(query, MAX_DAYS, context));

/** Sales per local hour of the day (0 to 23) over the range: 24 rows for each currency with sales; with the query as read. */
export async function getBusyHours(reports: ReportRepository, org: Org, input: z.input<typeof querySchema>): Promise<GetBusyHoursResponse> {
  const query = validate(querySchema, input);
  const rows = await reports.busyHours(org.id, query);
  const hours = rows.map((row) => ({ currency: row.currency, hour: row.hour, orders: row.orders, grossMinor: row.gross }));
  return { from: query.from, to: query.to, timeZone: query.timeZone, hours };
}
