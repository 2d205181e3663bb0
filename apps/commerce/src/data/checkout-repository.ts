import { randomUUID } from 'node:crypto';
import type { Sql } from '@ctk/shared';
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

const INSERT = `INSERT INTO checkouts (id, organization_id, kind, public_token, order_number, currency, total_minor, tax_minor, satoshis,
    expires_at, created_at, updated_at)
  VALUES ($1::uuid, $2::uuid, $3, $4, $5, $6, $7, $8, $9, $10::timestamp(3), $11::timestamp(3), $12::timestamp(3)) RETURNING *`;

/** Checkouts over Prisma. A checkout is found by its public token within its organisation only. */
export function createCheckoutRepository(prisma: PrismaClient, sql: Sql) {
  /** The checkout that opened this pos order, if it is the organisation's (an order's change names both). */
  async function byOrderNumber(organizationId: string, orderNumber: string): Promise<Checkout | null> {
    const found = await prisma.checkout.findUnique({ where: { orderNumber } });
    return found?.organizationId === organizationId ? found : null;
  }

  return {
    /** Every checkout opened: one statement without Prisma's client (decision 0048). */
    async create(checkout: NewCheckout): Promise<Checkout> {
      const { organizationId, kind = 'items', publicToken, orderNumber, currency, totalMinor, taxMinor, satoshis } = checkout;
      const [created] = await sql.rows<Checkout>(INSERT, [
        randomUUID(),
        organizationId,
        kind,
        publicToken,
        orderNumber,
        currency,
        totalMinor,
        taxMinor,
        satoshis,
        checkout.expiresAt,
        checkout.createdAt,
        checkout.updatedAt,
      ]);
      return created!;
    },

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
