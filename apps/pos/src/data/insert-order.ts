import { randomUUID } from 'node:crypto';
import { columnOf, jsonArg, type SqlArg, type SqlQueries } from '@ctk/shared';
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
 * The order and its lines in one statement (decision 0048), the lines from one json argument (jsonArg).
 */
const INSERT = `WITH lines AS (
    INSERT INTO order_lines (id, order_id, position, item_id, name, quantity, unit_price_minor, modifiers, discount_minor,
      tax_treatment, tax_rate, tax_minor, total_minor)
    SELECT line.id, $1::uuid, line.position, line.item_id, line.name, line.quantity, line.unit_price_minor, line.modifiers,
      line.discount_minor, line.tax_treatment, line.tax_rate, line.tax_minor, line.total_minor
    FROM json_to_recordset($${COLUMNS.length + 1}::json) AS line(id uuid, position int, item_id uuid, name text, quantity int8,
      unit_price_minor int8, modifiers jsonb, discount_minor int8, tax_treatment text, tax_rate text, tax_minor int8, total_minor int8))
  INSERT INTO orders (${COLUMNS.join(', ')})
  VALUES (${COLUMNS.map((_, index) => `$${index + 1}`).join(', ')})
  RETURNING *`;

/**
 * Inserts the order under `orderNumber` with its lines, in one statement, and answers it as a read of it would:
 * the row as inserted, the lines as given (each with its new id), no payment and no refund yet.
 */
export async function insertOrder(db: SqlQueries, order: NewOrder, orderNumber: string): Promise<OrderWithParts> {
  const id = randomUUID();
  const lines: OrderLine[] = order.lines.map((line) => ({ ...line, id: randomUUID(), orderId: id }));
  const record: Record<string, unknown> = { commissionMinor: 0n, commissionSatoshis: 0n, ...order, id, orderNumber };
  const linesJson = jsonArg(
    lines.map((line) => Object.fromEntries(Object.entries(line).map(([field, value]) => [columnOf(field), value]))),
  );
  const [inserted] = await db.rows<Order>(INSERT, [...FIELDS.map((field) => (record[field] ?? null) as SqlArg), linesJson]);
  return { ...inserted!, lines, payments: [], refunds: [] };
}
