import { OrderChanged } from '@ctk/proto/ctk/events/v1/order_event';
import { PaymentEvent } from '@ctk/proto/ctk/events/v1/payment_event';
import type { SqlQueries, Statement } from '../db/sql.js';
import { AppError } from '../errors.js';
import { headersOf } from '../tracing/context.js';
import { ORDER_CHANGED_SUBJECT, paymentSubject } from './subjects.js';

/*
 * The outbox table is @ctk/shared's model (prisma/outbox.prisma), added to every app's schema when its
 * client is generated and migrated like any table. The relay reads and updates it with raw SQL by its
 * table and column names, so it needs no generated types from the app.
 */

/** The outbox row as written. */
export type OutboxEventData = { id: string; subject: string; payload: Uint8Array<ArrayBuffer>; traceContext?: string | null };

/**
 * The caller's transaction: Prisma's interactive one (`prisma.$transaction(async (tx) => ...)`), structurally,
 * or an Sql transaction's statements (decision 0048).
 */
export type OutboxTransaction = SqlQueries | { $executeRawUnsafe(query: string, ...values: unknown[]): PromiseLike<number> };

/** Every event of every app is written so: a raw statement, about half the CPU of the model's create (decision 0048). */
const INSERT = 'INSERT INTO outbox_events (id, subject, payload, trace_context) VALUES ($1, $2, $3, $4)';

/**
 * Writes an event to the outbox in the caller's transaction: it is published only if that commits. The
 * active trace and request id are kept with it, so that its publishing and its consumers join the trace.
 */
export async function enqueueOutboxEvent(tx: OutboxTransaction, data: OutboxEventData): Promise<void> {
  const { text, args } = outboxInsert(data);
  if ('rows' in tx) await tx.rows(text, args);
  else await tx.$executeRawUnsafe(text, ...args);
}

/** The statement enqueueOutboxEvent sends, for a caller that sends it with its other writes (writeTogether). */
export function outboxInsert(data: OutboxEventData): Statement {
  if (!data.id) throw new AppError('bad_request', 'an outbox event needs an id');
  const headers = headersOf();
  const traceContext = Object.keys(headers).length > 0 ? JSON.stringify(headers) : null;
  return { text: INSERT, args: [data.id, data.subject, data.payload, traceContext] };
}

/** Writes a payment event to the outbox in the caller's transaction, on its type's subject. */
export async function enqueuePaymentEvent(tx: OutboxTransaction, event: PaymentEvent): Promise<OutboxEventData> {
  const data = paymentEventData(event);
  await enqueueOutboxEvent(tx, data);
  return data;
}

/** The outbox row of a payment event, on its type's subject (outboxInsert writes it). */
export function paymentEventData(event: PaymentEvent): OutboxEventData {
  return { id: event.id, subject: paymentSubject(event.type), payload: Uint8Array.from(PaymentEvent.encode(event).finish()) };
}

/** Writes an order's change to the outbox in the caller's transaction (ctk.orders.changed). */
export async function enqueueOrderChanged(tx: OutboxTransaction, event: OrderChanged): Promise<void> {
  await enqueueOutboxEvent(tx, orderChangedData(event));
}

/** The outbox row of an order's change (outboxInsert writes it). */
export function orderChangedData(event: OrderChanged): OutboxEventData {
  return { id: event.id, subject: ORDER_CHANGED_SUBJECT, payload: Uint8Array.from(OrderChanged.encode(event).finish()) };
}
