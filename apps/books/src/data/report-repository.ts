import { AppError } from '@ctk/shared';
import { GIFT_CARD_SALE, REFUNDS, SALES } from '../domain/report-definitions.js';
import type { ReportRange } from '../domain/report-input.js';
import type { RawQueryable } from './raw-queryable.js';

export type ReportRepository = ReturnType<typeof createReportRepository>;
export type SalesRow = {
  period: string;
  currency: string;
  orders: bigint;
  gross: bigint;
  tax: bigint;
  refunds: bigint;
  refundsTax: bigint;
  giftCardsSold: bigint;
  tips: bigint;
  refundsTips: bigint;
};
export type ItemRow = {
  currency: string;
  rank: number;
  itemId: string;
  name: string;
  quantity: bigint;
  gross: bigint;
  tax: bigint;
  refundedQuantity: bigint;
  refunded: bigint;
};
export type HourRow = { currency: string; weekday: number; hour: number; orders: bigint; gross: bigint };

const list = (types: readonly string[]) => types.map((type) => `'${type}'`).join(', ');
const IS_SALE = `e.event_type IN (${list(SALES)})`;
const IS_REFUND = `e.event_type IN (${list(REFUNDS)})`;
/** One order, however many entries paid it: its source (e.g. pos and the order id), or the entry itself without one. */
const ORDER = `CASE WHEN e.source_id = '' THEN e.id::text ELSE e.source_service || ':' || e.source_id END`;

/**
 * Parameters $1 organisation, $2 from, $3 to, $4 time zone. journal_entries.occurred_at holds UTC:
 * `local` is its wall-clock time in the zone, and the local dates become the UTC range [lo, hi).
 */
const BOUNDS = `bounds AS (
  SELECT ($2::date::timestamp AT TIME ZONE $4) AT TIME ZONE 'UTC' AS lo,
    (($3::date + 1)::timestamp AT TIME ZONE $4) AT TIME ZONE 'UTC' AS hi
)`;
const local = (column: string) => `((${column} AT TIME ZONE 'UTC') AT TIME ZONE $4)`;
const IN_RANGE = (alias: string) => `${alias}.organization_id = $1::uuid AND ${alias}.occurred_at >= b.lo AND ${alias}.occurred_at < b.hi`;

/** Per local period ($5 'day' or 'month', labelled by the format $6) and currency; every period of the range for each currency seen. */
const SALES_SQL = `
WITH ${BOUNDS}, totals AS (
  SELECT to_char(date_trunc($5, ${local('e.occurred_at')}), $6) AS period, e.currency,
    count(DISTINCT ${ORDER}) FILTER (WHERE ${IS_SALE}) AS orders,
    sum(e.amount_minor - e.tip_minor) FILTER (WHERE ${IS_SALE}) AS gross,
    sum(e.tip_minor) FILTER (WHERE ${IS_SALE}) AS tips,
    sum(e.tax_minor) FILTER (WHERE ${IS_SALE}) AS tax,
    sum(e.amount_minor - e.tip_minor) FILTER (WHERE ${IS_REFUND}) AS refunds,
    sum(e.tax_minor) FILTER (WHERE ${IS_REFUND}) AS refunds_tax,
    sum(e.tip_minor) FILTER (WHERE ${IS_REFUND}) AS refunds_tips,
    sum(e.amount_minor) FILTER (WHERE e.event_type = '${GIFT_CARD_SALE}') AS gift_cards_sold
  FROM journal_entries e CROSS JOIN bounds b
  WHERE ${IN_RANGE('e')}
  GROUP BY 1, 2
), periods AS (
  SELECT to_char(p, $6) AS period FROM generate_series(date_trunc($5, $2::date::timestamp), $3::date::timestamp, ('1 ' || $5)::interval) AS p
)
SELECT p.period, c.currency, coalesce(t.orders, 0)::bigint AS orders, coalesce(t.gross, 0)::bigint AS gross,
  coalesce(t.tax, 0)::bigint AS tax, coalesce(t.refunds, 0)::bigint AS refunds, coalesce(t.refunds_tax, 0)::bigint AS "refundsTax",
  coalesce(t.gift_cards_sold, 0)::bigint AS "giftCardsSold", coalesce(t.tips, 0)::bigint AS tips,
  coalesce(t.refunds_tips, 0)::bigint AS "refundsTips"
FROM periods p CROSS JOIN (SELECT DISTINCT currency FROM totals) c
LEFT JOIN totals t ON t.period = p.period AND t.currency = c.currency
ORDER BY p.period, c.currency`;

/**
 * Sold and refunded lines per item (item_id, or the name of an ad hoc line) and currency, ranked by
 * what they brought in net of refunds; $5 items per currency.
 */
const TOP_ITEMS_SQL = `
WITH ${BOUNDS}, lines AS (
  SELECT e.currency, i.item_id, CASE WHEN i.item_id = '' THEN i.name ELSE '' END AS ad_hoc_name, i.name, i.occurred_at,
    i.quantity, i.total_minor, i.tax_minor, ${IS_REFUND} AS refund
  FROM journal_entry_items i JOIN journal_entries e ON e.id = i.entry_id CROSS JOIN bounds b
  WHERE ${IN_RANGE('i')} AND (${IS_SALE} OR ${IS_REFUND})
), items AS (
  SELECT currency, item_id, (array_agg(name ORDER BY refund, occurred_at DESC))[1] AS name,
    coalesce(sum(quantity) FILTER (WHERE NOT refund), 0) - coalesce(sum(quantity) FILTER (WHERE refund), 0) AS quantity,
    coalesce(sum(total_minor) FILTER (WHERE NOT refund), 0) - coalesce(sum(total_minor) FILTER (WHERE refund), 0) AS gross,
    coalesce(sum(tax_minor) FILTER (WHERE NOT refund), 0) - coalesce(sum(tax_minor) FILTER (WHERE refund), 0) AS tax,
    coalesce(sum(quantity) FILTER (WHERE refund), 0) AS refunded_quantity,
    coalesce(sum(total_minor) FILTER (WHERE refund), 0) AS refunded
  FROM lines GROUP BY currency, item_id, ad_hoc_name
), ranked AS (
  SELECT *, row_number() OVER (PARTITION BY currency ORDER BY gross DESC, quantity DESC, name, item_id) AS rank FROM items
)
SELECT currency, rank::int AS rank, item_id AS "itemId", name, quantity::bigint AS quantity, gross::bigint AS gross, tax::bigint AS tax,
  refunded_quantity::bigint AS "refundedQuantity", refunded::bigint AS refunded
FROM ranked WHERE rank <= $5 ORDER BY currency, rank`;

/** Sales per local hour of the day and currency, 24 hours for each currency seen. */
const BUSY_HOURS_SQL = `
WITH ${BOUNDS}, totals AS (
  SELECT e.currency, extract(isodow FROM ${local('e.occurred_at')})::int AS weekday, extract(hour FROM ${local('e.occurred_at')})::int AS hour,
    count(DISTINCT ${ORDER}) AS orders, sum(e.amount_minor - e.tip_minor) AS gross
  FROM journal_entries e CROSS JOIN bounds b
  WHERE ${IN_RANGE('e')} AND ${IS_SALE}
  GROUP BY 1, 2, 3
)
SELECT c.currency, d.weekday, h.hour, coalesce(t.orders, 0)::bigint AS orders, coalesce(t.gross, 0)::bigint AS gross
FROM (SELECT DISTINCT currency FROM totals) c CROSS JOIN generate_series(1, 7) AS d(weekday) CROSS JOIN generate_series(0, 23) AS h(hour)
LEFT JOIN totals t ON t.currency = c.currency AND t.weekday = d.weekday AND t.hour = h.hour
ORDER BY c.currency, d.weekday, h.hour`;

/** Reads for the reports: each aggregates in one statement, by local time in the range's time zone. */
export function createReportRepository(db: RawQueryable) {
  const run = <T>(sql: string, ...values: unknown[]): Promise<T[]> =>
    Promise.resolve(db.$queryRawUnsafe<T[]>(sql, ...values)).catch(unknownTimeZone);
  const range = (organizationId: string, r: ReportRange) => [organizationId, r.from, r.to, r.timeZone];

  return {
    sales: (organizationId: string, r: ReportRange, period: 'day' | 'month') =>
      run<SalesRow>(SALES_SQL, ...range(organizationId, r), period, period === 'day' ? 'YYYY-MM-DD' : 'YYYY-MM'),
    topItems: (organizationId: string, r: ReportRange, limit: number) => run<ItemRow>(TOP_ITEMS_SQL, ...range(organizationId, r), limit),
    busyHours: (organizationId: string, r: ReportRange) => run<HourRow>(BUSY_HOURS_SQL, ...range(organizationId, r)),
  };
}

/** A zone JavaScript knows but this PostgreSQL does not is the caller's input, not a fault. */
export function unknownTimeZone(error: unknown): never {
  if (error instanceof Error && /time zone .* not recognized/.test(error.message)) {
    throw new AppError('validation_failed', 'time_zone is not a time zone this database knows: use an IANA name such as Europe/London', {
      field: 'time_zone',
    });
  }
  throw error;
}
