import { randomUUID } from 'node:crypto';
import { OrderChanged } from '@ctk/proto/ctk/events/v1/order_event';
import {
  AppError,
  batchedWrites,
  columnOf,
  isUniqueViolation,
  orderChangedData,
  outboxInsert,
  prismaQueries,
  writeTogether,
  type Sql,
  type SqlArg,
  type SqlQueries,
  type Statement,
} from '@ctk/shared';
import type { Order, OrderLine, OrderPayment, OrderRefund, Prisma, PrismaClient } from '../generated/prisma/client.js';
import { insertOrders, type NewOrder, type NumberedOrder } from './insert-order.js';
import { orderWithPartsById, orderWithPartsByNumber, type OrderWithParts } from './order-with-parts.js';

export type { Order, OrderLine, OrderPayment, OrderRefund };
export type { OrderWithParts };
export type { NewOrder };
export type OrderRepository = ReturnType<typeof createOrderRepository>;
export type OrderTransaction = Prisma.TransactionClient;
/** What the watcher needs of a paid order to ask whether its payments are mined. */
export type UnconfirmedOrder = Pick<Order, 'id' | 'orderNumber' | 'status' | 'paidAt'> & {
  payments: Pick<OrderPayment, 'txid' | 'status'>[];
};
/** What the watcher needs of a watched order to ask about its address: the txids of the payments it already has. */
export type WatchedOrder = Pick<Order, 'id' | 'orderNumber' | 'status' | 'address' | 'derivationIndex' | 'createdAt' | 'expiresAt'> & {
  txids: string[];
};

/**
 * OrderRepository.watched's page: orders taking payment, and those settled otherwise too (cancelled, paid at a
 * provider or wholly by prepaid cards; with a date $2, those settled since then alone), when their output is a child
 * of the xpub (decision 0022): a payment to one anyway is kept for a refund (record-order-payment.ts). One on the
 * single receiving address is left out, so that it never makes the address look shared and an open order there
 * blind. A page comes after ($3, $4): expiry, then id.
 */
const WATCHED = `WHERE o.expires_at > $1::timestamp(3)
    AND ($3::timestamp(3) IS NULL OR o.expires_at > $3::timestamp(3) OR (o.expires_at = $3::timestamp(3) AND o.id > $4::uuid))
    AND (o.status IN ('open', 'expired')
      OR (o.derivation_index IS NOT NULL AND ($2::timestamp(3) IS NULL OR o.updated_at >= $2::timestamp(3))
        AND (o.status IN ('cancelled', 'paid_elsewhere')
          OR (o.status IN ('paid', 'confirmed') AND o.paid_satoshis = 0 AND o.card_paid_minor > 0))))
  ORDER BY o.expires_at, o.id LIMIT $5`;

/** An order's lines, payments and refunds (decision 0033), as every read of an order answers them. */
export const withParts = {
  lines: { orderBy: { position: 'asc' } },
  payments: { orderBy: { receivedAt: 'asc' } },
  refunds: { orderBy: { createdAt: 'asc' } },
} as const;

/** Orders, their lines and payments over Prisma. */
export function createOrderRepository(prisma: PrismaClient, sql: Sql) {
  // The orders opened at once without a guard go in one statement (decision 0060).
  const insert = batchedWrites((numbered: NumberedOrder[]) => insertOrders(sql, numbered));
  return {
    /**
     * Creates the order under a fresh number, in one statement without Prisma's client (decision 0048), shared
     * with the orders opened at once (decision 0060); a number already taken (1 in 2^50 per order) draws another.
     * With `guard`, the insert runs alone in a transaction after it: a pay link locks its row there and checks its
     * uses, so that the check and the insert are one step for concurrent openings.
     */
    async create(order: NewOrder, newNumber: () => string, guard?: (tx: OrderTransaction) => Promise<void>): Promise<OrderWithParts> {
      for (let attempt = 0; ; attempt++) {
        try {
          if (!guard) return await insert({ order, orderNumber: newNumber() });
          // Openings of one link wait for each other's lock: give them longer than Prisma's 2 s to start.
          return await prisma.$transaction(
            async (tx) => {
              await guard(tx);
              const [inserted] = await insertOrders(prismaQueries(tx), [{ order, orderNumber: newNumber() }]);
              return inserted!;
            },
            { maxWait: 20_000, timeout: 20_000 },
          );
        } catch (error) {
          if (!isUniqueViolation(error) || attempt >= 3) throw error;
        }
      }
    },

    /** Every read of an order asks this or byId: one statement without Prisma's client (decision 0048). */
    byNumber(orderNumber: string): Promise<OrderWithParts | null> {
      return orderWithPartsByNumber(sql, orderNumber);
    },

    /**
     * The order's state alone (one row, no parts), as its last change left it; null for a number no order has.
     * A pending checkout's status read asks it (decision 0046): read without Prisma's client (decision 0048).
     */
    async stateByNumber(orderNumber: string): Promise<OrderChanged | null> {
      const [order] = await sql.rows<Announced>(STATE_BY_NUMBER, [orderNumber]);
      return order ? orderChangedOf(order) : null;
    },

    byId(id: string): Promise<OrderWithParts | null> {
      return orderWithPartsById(sql, id);
    },

    /** An organisation's orders, newest first, after `after` when given: in one status, or numbered from a prefix, when given. */
    list(
      organizationId: string,
      filter: { status: string; search: string },
      take: number,
      after?: { at: Date; id: string },
    ): Promise<OrderWithParts[]> {
      const afterWhere = after && { OR: [{ createdAt: { lt: after.at } }, { createdAt: after.at, id: { lt: after.id } }] };
      return prisma.order.findMany({
        where: {
          organizationId,
          ...(filter.status ? { status: filter.status } : {}),
          ...(filter.search ? { orderNumber: { startsWith: filter.search } } : {}),
          ...afterWhere,
        },
        orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
        take,
        include: withParts,
      });
    },

    /**
     * Runs `change` on the order with its row locked (lockOrder), so that payments, a cancel and the watcher's
     * moves on one order happen one after another; answers the order as it then is. `patient` waits longer for
     * the order's lock, where many callers change one order at once.
     */
    async locked<T>(
      orderId: string,
      change: (tx: OrderTransaction, order: OrderWithParts) => Promise<T>,
      options: { patient?: boolean } = {},
    ): Promise<T> {
      return prisma.$transaction(
        async (tx) => {
          const order = await lockOrder(prismaQueries(tx), orderId);
          if (!order) throw new AppError('not_found', 'The order is gone');
          return change(tx, order);
        },
        // `patient` changes that many callers make at once on one order (refunds, decision 0033) wait for each
        // other's lock: give them longer than Prisma's 2 s to start.
        options.patient ? { maxWait: 20_000, timeout: 20_000 } : undefined,
      );
    },

    /**
     * A BIP270 payment claims the open, unexpired order for `txid`, in one conditional update (no
     * transaction to wait in): unless another transaction's claim since `staleBefore` holds it. True when
     * the order is now claimed by `txid`. An order of a pay link with a use limit (`payLinkId`) is claimed
     * with the link's row locked, and only while its paid orders and the live claims on its other orders
     * leave a use (decision 0024): of payments of several orders at the last use, one is broadcast.
     */
    async claimPayment(orderId: string, txid: string, now: Date, staleBefore: Date, payLinkId?: string | null): Promise<boolean> {
      const claim = async (db: Prisma.TransactionClient | PrismaClient) =>
        (
          await db.order.updateMany({
            where: {
              id: orderId,
              status: 'open',
              expiresAt: { gte: now },
              OR: [{ claimedTxid: null }, { claimedTxid: txid }, { claimedAt: null }, { claimedAt: { lt: staleBefore } }],
            },
            data: { claimedTxid: txid, claimedAt: now },
          })
        ).count === 1;
      if (!payLinkId) return claim(prisma);
      return prisma.$transaction(
        async (tx) => {
          const [link] = await tx.$queryRaw<
            { max_uses: bigint }[]
          >`SELECT max_uses FROM pay_links WHERE id = ${payLinkId}::uuid FOR UPDATE`;
          if (link && link.max_uses > 0n) {
            const taken = await tx.order.count({
              where: {
                payLinkId,
                id: { not: orderId },
                OR: [
                  { status: { in: ['paid', 'confirmed'] } },
                  { status: 'open', claimedTxid: { not: null }, claimedAt: { gte: staleBefore } },
                ],
              },
            });
            if (BigInt(taken) >= link.max_uses) return false;
          }
          return claim(tx);
        },
        { maxWait: 20_000, timeout: 20_000 },
      );
    },

    /** Ends `txid`'s claim on the order, if it still holds it. */
    async releasePaymentClaim(orderId: string, txid: string): Promise<void> {
      await prisma.order.updateMany({ where: { id: orderId, claimedTxid: txid }, data: { claimedTxid: null, claimedAt: null } });
    },

    /**
     * Orders whose address the watcher asks about: open, expired or cancelled within the late window, and not fully
     * paid. Every round reads them all: one statement a page, without Prisma's client (decision 0048), of the
     * columns the watcher asks with alone (the whole order is read for a payment found).
     */
    watched(
      lateSince: Date,
      take: number,
      options: { stray: 'all' | Date; after?: Pick<WatchedOrder, 'expiresAt' | 'id'> },
    ): Promise<WatchedOrder[]> {
      const { stray, after } = options;
      const strayAt = stray === 'all' ? null : stray;
      return sql.rows<WatchedOrder>(
        `SELECT o.id, o.order_number, o.status, o.address, o.derivation_index, o.created_at, o.expires_at,
          ARRAY(SELECT p.txid FROM order_payments p WHERE p.order_id = o.id) AS txids
        FROM orders o ${WATCHED}`,
        [lateSince, strayAt, after?.expiresAt ?? null, after?.id ?? null, take],
      );
    },

    /**
     * Paid orders waiting for their payments to be mined, by when they were paid: those paid since `paidSince`
     * alone when it is given, a page after `after`.
     */
    paidUnconfirmed(
      take: number,
      options: { paidSince?: Date; after?: Pick<UnconfirmedOrder, 'paidAt' | 'id'> } = {},
    ): Promise<UnconfirmedOrder[]> {
      const { paidSince, after } = options;
      return sql.rows<UnconfirmedOrder>(
        `SELECT o.id, o.order_number, o.status, o.paid_at, COALESCE((SELECT json_agg(json_build_object('txid', p.txid, 'status', p.status)
          ORDER BY p.received_at) FROM order_payments p WHERE p.order_id = o.id), '[]') AS payments
        FROM orders o WHERE o.status = 'paid' AND ($1::timestamp(3) IS NULL OR o.paid_at >= $1::timestamp(3))
          AND ($2::timestamp(3) IS NULL OR o.paid_at > $2::timestamp(3) OR (o.paid_at = $2::timestamp(3) AND o.id > $3::uuid))
        ORDER BY o.paid_at, o.id LIMIT $4`,
        [paidSince ?? null, after?.paidAt ?? null, after?.id ?? null, take],
      );
    },

    /**
     * Open orders past their expiry become expired (a partial payment is kept and flagged). Orders with
     * prepaid cards (paid in part by one, or selling one) are expired one by one with their cards
     * (prepaid/expire-card-orders.ts), not here.
     */
    async expire(now: Date): Promise<string[]> {
      const rows = await prisma.$queryRaw<{ id: string }[]>`
        UPDATE orders SET status = 'expired', updated_at = ${now},
          flags = CASE WHEN paid_satoshis > 0 AND NOT ('paid_partial' = ANY(flags)) THEN array_append(flags, 'paid_partial') ELSE flags END
        WHERE status = 'open' AND expires_at <= ${now} AND card_paid_minor = 0 AND prepaid_card_id IS NULL RETURNING id`;
      return rows.map((row) => row.id);
    },
  };
}

/** The order's fields a change of which is its state's change: what a checkout shows (decision 0046). */
const STATE_FIELDS = ['status', 'paidSatoshis', 'satoshis', 'paidAt', 'confirmedAt'] as const;
/** What ctk.orders.changed carries of the order. */
type Announced = Pick<
  Order,
  'id' | 'organizationId' | 'orderNumber' | 'stateVersion' | 'status' | 'satoshis' | 'paidSatoshis' | 'paidAt' | 'confirmedAt'
>;
const ANNOUNCED = 'id, organization_id, order_number, state_version, status, satoshis, paid_satoshis, paid_at, confirmed_at';
const STATE_BY_NUMBER = `SELECT ${ANNOUNCED} FROM orders WHERE order_number = $1`;

/** What a change of an order sets: new values of its columns (its state_version counts itself). */
export type OrderChanges = Partial<Omit<Order, 'id' | 'orderNumber' | 'organizationId' | 'stateVersion' | 'createdAt'>>;

/**
 * Changes the order's row inside the caller's transaction, where `locked` is the row as read under its lock, in
 * one statement without Prisma's client (decisions 0048, 0063): a Prisma transaction passes prismaQueries(tx). A
 * change of its state (STATE_FIELDS) counts in `state_version` and writes ctk.orders.changed to the outbox in the
 * same statement: the caller wakes the relay (`eventsCommitted`) once it commits.
 */
export async function updateOrder(tx: SqlQueries, locked: Order, changes: OrderChanges): Promise<void> {
  checkOrderUpdated(locked, await writeTogether(tx, orderUpdate(locked, changes)));
}

/**
 * updateOrder's writes, for a caller that sends them with its own (writeTogether, then checkOrderUpdated): the
 * order's update and, for a change of its state, its ctk.orders.changed, the state's version one past the one
 * read under the lock (the update matches no row at another).
 */
export function orderUpdate(locked: Order, changes: OrderChanges): Statement[] {
  const fields = (Object.keys(changes) as (keyof OrderChanges)[]).filter((field) => changes[field] !== undefined);
  if (fields.length === 0) return [];
  const set = fields.map((field, index) => `"${columnOf(field)}" = $${index + 2}`);
  const args: SqlArg[] = [locked.id, ...fields.map((field) => changes[field] as SqlArg)];
  if (!STATE_FIELDS.some((field) => changes[field] !== undefined)) {
    return [{ text: `UPDATE orders SET ${set.join(', ')} WHERE id = $1::uuid`, args }];
  }
  const version = locked.stateVersion + 1n;
  const at = `$${args.length + 1}::int8`;
  const versioned = `state_version = ${at} WHERE id = $1::uuid AND state_version = ${at} - 1`;
  return [
    { text: `UPDATE orders SET ${set.join(', ')}, ${versioned}`, args: [...args, version] },
    outboxInsert(orderChangedData(orderChangedOf({ ...locked, ...definedOf(changes, fields), stateVersion: version }))),
  ];
}

/** The changes of `fields` alone: a change given as undefined leaves its column as it was. */
function definedOf(changes: OrderChanges, fields: (keyof OrderChanges)[]): OrderChanges {
  return Object.fromEntries(fields.map((field) => [field, changes[field]]));
}

/**
 * Throws unless orderUpdate's writes, sent first to writeTogether (`written` its answer), updated the order's row.
 * Under the caller's lock the row is as read: no row means the lock was not held, and the transaction rolls back.
 */
export function checkOrderUpdated(locked: Order, [updated]: number[]): void {
  if (updated === 0) throw new Error(`order ${locked.orderNumber} changed since it was read under its lock`);
}

/** updateOrder, answering the order as it now is, with its lines and payments. */
export async function updateOrderWithParts(tx: SqlQueries, locked: Order, changes: OrderChanges): Promise<OrderWithParts> {
  await updateOrder(tx, locked, changes);
  const order = await orderWithPartsById(tx, locked.id);
  if (!order) throw new AppError('not_found', 'The order is gone');
  return order;
}

/** The order's state as its last change left it: what ctk.orders.changed carries, and GetOrderState answers. */
function orderChangedOf(order: Announced): OrderChanged {
  const { id, organizationId, orderNumber, stateVersion, status, satoshis, paidSatoshis, paidAt, confirmedAt } = order;
  return OrderChanged.fromPartial({
    organizationId,
    orderNumber,
    status,
    satoshis,
    paidSatoshis,
    // One id a change: the broker drops a second publish of it.
    id: `pos.order-changed.${id}.${stateVersion}`,
    version: stateVersion,
    ...(paidAt ? { paidAt } : {}),
    ...(confirmedAt ? { confirmedAt } : {}),
  });
}

/**
 * Locks the order's row (SELECT ... FOR UPDATE) until the transaction ends, and answers it as it now is. With
 * `payLinkId` (the link the order was opened from: it never changes), the link's row is locked first (always
 * link, then order, as an opening and a claim lock them), so that payments of one link's orders are recorded
 * one after another: the one that takes its last use cancels the others (decision 0024).
 */
export async function lockOrder(tx: SqlQueries, id: string, payLinkId?: string | null): Promise<OrderWithParts | null> {
  if (payLinkId) await tx.rows('SELECT id FROM pay_links WHERE id = $1::uuid FOR UPDATE', [payLinkId]);
  await tx.rows('SELECT id FROM orders WHERE id = $1::uuid FOR UPDATE', [id]);
  // After the lock, in a statement of its own (orderWithPartsById).
  return orderWithPartsById(tx, id);
}

/**
 * In the transaction recording the payment that takes a limited link's last use, with the link locked: its
 * other orders still taking payment (open or expired, not paid) are cancelled, each with its row locked and its
 * prepaid card uses given back by `release`; one holding a partial payment is flagged `refund_due`. Answers the
 * ids cancelled.
 */
export async function cancelLinkSiblings(
  tx: SqlQueries,
  payLinkId: string,
  exceptId: string,
  now: Date,
  release: (order: OrderWithParts) => Promise<OrderChanges>,
): Promise<string[]> {
  const rows = await tx.rows<{ id: string }>(
    `SELECT id FROM orders WHERE pay_link_id = $1::uuid AND id <> $2::uuid AND status IN ('open', 'expired') ORDER BY id FOR UPDATE`,
    [payLinkId, exceptId],
  );
  for (const { id } of rows) {
    const order = (await orderWithPartsById(tx, id))!;
    const flags =
      order.paidSatoshis > 0n ? [...new Set([...order.flags.filter((flag) => flag !== 'paid_partial'), 'refund_due'])] : order.flags;
    await updateOrder(tx, order, { status: 'cancelled', cancelledAt: now, updatedAt: now, flags, ...(await release(order)) });
  }
  return rows.map((row) => row.id);
}

const INSERT_PAYMENT = `INSERT INTO order_payments
    (id, order_id, txid, satoshis, via, status, block_height, late, received_at, receipt_vout, refund_to)
  VALUES ($1::uuid, $2::uuid, $3, $4::bigint, $5, $6, $7::int4, $8, $9::timestamp(3), $10::int4, $11)
  RETURNING *`;

/** A payment of the order, recorded in its transaction, as it is now stored; a txid the order has is a unique violation. */
export async function insertOrderPayment(tx: SqlQueries, payment: Omit<OrderPayment, 'id'>): Promise<OrderPayment> {
  const [row] = await tx.rows<OrderPayment>(INSERT_PAYMENT, [
    randomUUID(),
    payment.orderId,
    payment.txid,
    payment.satoshis,
    payment.via,
    payment.status,
    payment.blockHeight,
    payment.late,
    payment.receivedAt,
    payment.receiptVout,
    payment.refundTo,
  ]);
  return row!;
}

/** What the chain now says of one of the order's payments. */
export async function setOrderPaymentState(
  tx: OrderTransaction,
  orderId: string,
  txid: string,
  state: { status: string; blockHeight: number | null },
): Promise<void> {
  await tx.orderPayment.update({ where: { orderId_txid: { orderId, txid } }, data: state, select: { orderId: true } });
}
