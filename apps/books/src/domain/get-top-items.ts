import type { GetTopItemsResponse } from '@ctk/proto/ctk/books/v1/books';
import { type Org, pageLimit, validate } from '@ctk/shared';
import { z } from 'zod';
import type { ReportRepository } from '../data/report-repository.js';
import { checkRange, MAX_DAYS, rangeFields } from './report-input.js';

const DEFAULT_LIMIT = 10;
const MAX_LIMIT = 100;

const querySchema = z
  .object({
    ...rangeFields,
    limit: pageLimit(DEFAULT_LIMIT, MAX_LIMIT),
  })
  .superRefine((query, context) => checkRange(query, MAX_DAYS, context));

/**
 * The best sellers of the range per currency, by what they brought in (tax included) net of refunded
 * lines of them. Items are told apart by item id; ad hoc lines, which have none, by name. With the query
 * as read, defaults applied.
 */
export async function getTopItems(reports: ReportRepository, org: Org, input: z.input<typeof querySchema>): Promise<GetTopItemsResponse> {
  const query = validate(querySchema, input);
  const rows = await reports.topItems(org.id, query, query.limit);
  const { from, to, timeZone, limit } = query;
  const items = rows.map((row) => ({
    currency: row.currency,
    rank: row.rank,
    itemId: row.itemId || undefined,
    name: row.name,
    quantity: row.quantity,
    grossMinor: row.gross,
    taxMinor: row.tax,
    refundedQuantity: row.refundedQuantity,
    refundedMinor: row.refunded,
  }));
  return { from, to, timeZone, limit, items };
}
