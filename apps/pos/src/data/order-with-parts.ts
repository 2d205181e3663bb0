import type { SqlQueries } from '@ctk/shared';
import type { Order, OrderLine, OrderPayment, OrderRefund } from '../generated/prisma/client.js';
import { jsonRows, typed, type Kind } from './json-rows.js';

/** An order with its lines (by position), payments (by when received) and refunds (by when asked). */
export type OrderWithParts = Order & { lines: OrderLine[]; payments: OrderPayment[]; refunds: OrderRefund[] };

// Every field of each part, so that a field added to the schema fails the type check until it is read here.
const LINE: Record<keyof OrderLine, Kind> = {
  id: 'plain',
  orderId: 'plain',
  position: 'plain',
  itemId: 'plain',
  name: 'plain',
  quantity: 'bigint',
  unitPriceMinor: 'bigint',
  modifiers: 'plain',
  discountMinor: 'bigint',
  taxTreatment: 'plain',
  taxRate: 'plain',
  taxMinor: 'bigint',
  totalMinor: 'bigint',
};
const PAYMENT: Record<keyof OrderPayment, Kind> = {
  id: 'plain',
  orderId: 'plain',
  txid: 'plain',
  satoshis: 'bigint',
  via: 'plain',
  status: 'plain',
  blockHeight: 'plain',
  late: 'plain',
  receivedAt: 'date',
  receiptVout: 'plain',
  refundTo: 'plain',
};
const REFUND: Record<keyof OrderRefund, Kind> = {
  id: 'plain',
  orderId: 'plain',
  organizationId: 'plain',
  status: 'plain',
  amountMinor: 'bigint',
  taxMinor: 'bigint',
  tipMinor: 'bigint',
  satoshis: 'bigint',
  address: 'plain',
  script: 'plain',
  lines: 'plain',
  reason: 'plain',
  createdBy: 'plain',
  createdAt: 'date',
  expiresAt: 'date',
  claimedTxid: 'plain',
  claimedAt: 'date',
  paidAt: 'date',
  cancelledAt: 'date',
  txid: 'plain',
};

/** The part's rows of order `o` as one json array (jsonRows). */
function partsOf(table: string, fields: Record<string, Kind>, orderBy: string): string {
  return jsonRows(fields, `${table} p WHERE p.order_id = o.id`, `p.${orderBy}`);
}

/** The columns of order `o` with its parts, for a statement that reads more beside them (read back by orderWithPartsOf). */
export const ORDER_WITH_PARTS = `o.*, ${partsOf('order_lines', LINE, 'position')} AS lines,
  ${partsOf('order_payments', PAYMENT, 'received_at')} AS payments, ${partsOf('order_refunds', REFUND, 'created_at')} AS refunds`;

const WITH_PARTS = `SELECT ${ORDER_WITH_PARTS} FROM orders o`;

/**
 * The order of an id (a UUID) with its parts, in one statement. A caller that locks the order's row does so in a
 * statement before this one: a statement that waited for the lock would read the row as its holder left it, but
 * the parts as they were when it began.
 */
export async function orderWithPartsById(sql: SqlQueries, id: string): Promise<OrderWithParts | null> {
  return first(await sql.rows<Raw>(`${WITH_PARTS} WHERE o.id = $1::uuid`, [id]));
}

/** The order of a number with its parts, in one statement. */
export async function orderWithPartsByNumber(sql: SqlQueries, orderNumber: string): Promise<OrderWithParts | null> {
  return first(await sql.rows<Raw>(`${WITH_PARTS} WHERE o.order_number = $1`, [orderNumber]));
}

/** A row of ORDER_WITH_PARTS's columns, as Sql reads it. */
export type OrderWithPartsRow = Order & Record<'lines' | 'payments' | 'refunds', Record<string, unknown>[]>;
type Raw = OrderWithPartsRow;

function first(rows: Raw[]): OrderWithParts | null {
  const [row] = rows;
  return row ? orderWithPartsOf(row) : null;
}

/** The order of a row of ORDER_WITH_PARTS's columns, its parts typed. */
export function orderWithPartsOf(row: Raw): OrderWithParts {
  return {
    ...row,
    lines: row.lines.map((line) => typed(line, LINE)),
    payments: row.payments.map((payment) => typed(payment, PAYMENT)),
    refunds: row.refunds.map((refund) => typed(refund, REFUND)),
  };
}
