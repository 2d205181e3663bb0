import { randomUUID } from 'node:crypto';
import { batchedWrites, columnOf, jsonArg, type Sql } from '@ctk/shared';
import type { Checkout, PrismaClient } from '../generated/prisma/client.js';
import type { CheckoutStatus } from '../checkouts/checkout-status.js';

export type { Checkout };
export type CheckoutRepository = ReturnType<typeof createCheckoutRepository>;

/** What opening a checkout records; the rest is the table's defaults (pending, nothing paid, following its order). */
export type NewCheckout = Pick<
  Checkout,
  | 'organizationId'
  | 'publicToken'
  | 'orderNumber'
  | 'currency'
  | 'totalMinor'
  | 'taxMinor'
  | 'satoshis'
  | 'expiresAt'
  | 'createdAt'
  | 'updatedAt'
> & { kind?: 'items' | 'tickets' };

/** Checkouts opened at once, in one statement: their rows from one json argument (jsonArg). */
const INSERT = `INSERT INTO checkouts (id, organization_id, kind, public_token, order_number, currency, total_minor, tax_minor, satoshis,
    expires_at, created_at, updated_at)
  SELECT * FROM json_to_recordset($1::json) AS c(id uuid, organization_id uuid, kind text, public_token text, order_number text,
    currency text, total_minor int8, tax_minor int8, satoshis int8, expires_at timestamp(3), created_at timestamp(3), updated_at timestamp(3))
  RETURNING *`;

/** Checkouts over Prisma. A checkout is found by its public token within its organisation only. */
export function createCheckoutRepository(prisma: PrismaClient, sql: Sql) {
  const insert = batchedWrites(async (checkouts: (NewCheckout & { id: string })[]) => {
    const rows = checkouts.map((checkout) =>
      Object.fromEntries(Object.entries(checkout).map(([field, value]) => [columnOf(field), value])),
    );
    const inserted = new Map((await sql.rows<Checkout>(INSERT, [jsonArg(rows)])).map((row) => [row.id, row]));
    return checkouts.map((checkout) => inserted.get(checkout.id)!);
  });

  /** The checkout that opened this pos order, if it is the organisation's (an order's change names both). */
  async function byOrderNumber(organizationId: string, orderNumber: string): Promise<Checkout | null> {
    const found = await prisma.checkout.findUnique({ where: { orderNumber } });
    return found?.organizationId === organizationId ? found : null;
  }

  return {
    /** Every checkout opened: one statement without Prisma's client (decision 0048), shared by those opened at once. */
    create: (checkout: NewCheckout): Promise<Checkout> => insert({ ...checkout, id: randomUUID(), kind: checkout.kind ?? 'items' }),

    /** A shopper's status read asks it on every poll: one row, read without Prisma's client (decision 0048). */
    async byToken(organizationId: string, publicToken: string): Promise<Checkout | null> {
      const [found] = await sql.rows<Checkout>('SELECT * FROM checkouts WHERE public_token = $1 AND organization_id = $2', [
        publicToken,
        organizationId,
      ]);
      return found ?? null;
    },

    byOrderNumber,

    /**
     * Records its order's change (ctk.orders.changed, decision 0046) on the checkout, unless a newer change
     * of the order is recorded already; a checkout refunded at its provider stays refunded.
     */
    async recordChange(id: string, version: bigint, state: OrderState, now: Date): Promise<void> {
      await prisma.checkout.updateMany({
        where: { id, orderVersion: { lt: version }, status: { not: 'refunded' } },
        data: { ...state, orderVersion: version, followsOrder: true, updatedAt: now },
      });
    },
  };
}

/** An order's state as its checkout records it (checkoutStateOf). */
export type OrderState = {
  status: CheckoutStatus;
  satoshis: bigint;
  paidSatoshis: bigint;
  paidAt: Date | null;
  confirmedAt: Date | null;
};
