import { randomUUID } from 'node:crypto';
import { columnOf, jsonArg, type SqlQueries } from '@ctk/shared';
import type { Order, OrderLine } from '../generated/prisma/client.js';
import type { OrderWithParts } from './order-with-parts.js';

/** What createOrder gives a new order: the columns the database does not fill (its state, what was paid, ...). */
export type NewOrder = Pick<Order, (typeof GIVEN)[number]> &
  Partial<Pick<Order, (typeof COMMISSION)[number]>> & { lines: Omit<OrderLine, 'id' | 'orderId'>[] };

const GIVEN = [
  'organizationId',
  'merchantHandle',
  'currency',
  'subtotalMinor',
  'discountMinor',
  'taxMinor',
  'tipMinor',
  'totalMinor',
  'pricesIncludeTax',
  'taxJurisdiction',
  'standardTaxRate',
  'exchangeRate',
  'rateSource',
  'rateAt',
  'satoshis',
  'address',
  'script',
  'derivationIndex',
  'receiptMerchant',
  'linesHash',
  'note',
  'createdBy',
  'payLinkId',
  'clientAddress',
  'prepaidCardId',
  'creditsTokenId',
  'loyaltyCardId',
  'rewardMinor',
  'reward',
  'rewardStamps',
  'createdAt',
  'updatedAt',
  'expiresAt',
] as const satisfies readonly (keyof Order)[];

/** An order sold through a referral link (decision 0040); the columns' defaults otherwise. */
const COMMISSION = [
  'commissionMinor',
  'commissionSatoshis',
  'commissionAddress',
  'commissionScript',
  'referralLinkId',
] as const satisfies readonly (keyof Order)[];

const FIELDS = ['id', 'orderNumber', ...GIVEN, ...COMMISSION] as const;
const COLUMNS = FIELDS.map(columnOf);

/**
 * Orders and their lines in one statement (decision 0048), each table's rows from one json argument (jsonArg) read
 * as its rows are typed: a column missing from an order is NULL, as it was bound.
 */
const INSERT = `WITH lines AS (
    INSERT INTO order_lines (id, order_id, position, item_id, name, quantity, unit_price_minor, modifiers, discount_minor,
      tax_treatment, tax_rate, tax_minor, total_minor)
    SELECT id, order_id, position, item_id, name, quantity, unit_price_minor, modifiers, discount_minor, tax_treatment, tax_rate,
      tax_minor, total_minor
    FROM json_populate_recordset(NULL::order_lines, $2::json))
  INSERT INTO orders (${COLUMNS.join(', ')})
  SELECT ${COLUMNS.join(', ')} FROM json_populate_recordset(NULL::orders, $1::json)
  RETURNING *`;

/** An order to insert under its number. */
export type NumberedOrder = { order: NewOrder; orderNumber: string };

/**
 * Inserts each order under its number with its lines, in one statement, and answers each as a read of it would:
 * the row as inserted, the lines as given (each with its new id), no payment and no refund yet.
 */
export async function insertOrders(db: SqlQueries, numbered: NumberedOrder[]): Promise<OrderWithParts[]> {
  const orders = numbered.map(({ order, orderNumber }) => {
    const id = randomUUID();
    const lines: OrderLine[] = order.lines.map((line) => ({ ...line, id: randomUUID(), orderId: id }));
    const record: Record<string, unknown> = { commissionMinor: 0n, commissionSatoshis: 0n, ...order, id, orderNumber };
    return { id, lines, row: Object.fromEntries(FIELDS.map((field) => [columnOf(field), record[field] ?? null])) };
  });
  const lineRows = orders.flatMap(({ lines }) =>
    lines.map((line) => Object.fromEntries(Object.entries(line).map(([field, value]) => [columnOf(field), value]))),
  );
  const rows = await db.rows<Order>(INSERT, [jsonArg(orders.map(({ row }) => row)), jsonArg(lineRows)]);
  const inserted = new Map(rows.map((row) => [row.id, row]));
  return orders.map(({ id, lines }) => ({ ...inserted.get(id)!, lines, payments: [], refunds: [] }));
}
