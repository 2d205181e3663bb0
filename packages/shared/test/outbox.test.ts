import { PaymentEvent, PaymentEventType } from '@ctk/proto/ctk/events/v1/payment_event';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { enqueuePaymentEvent } from '../src/events/outbox.js';
import { openOutboxDatabase, type OutboxDatabase } from './fixtures/outbox/database.js';
import { paymentEvent } from './fixtures/payment-events.js';

let db: OutboxDatabase;
beforeAll(async () => {
  db = await openOutboxDatabase();
});
afterAll(() => db.close());
beforeEach(() => db.reset());

describe('enqueuePaymentEvent', () => {
  it('writes the event in the same transaction as the order it is about', async () => {
    const event = paymentEvent();
    await db.prisma.$transaction(async (tx) => {
      await tx.order.create({ data: { id: event.sourceId, totalMinor: event.amountMinor } });
      await enqueuePaymentEvent(tx, event);
    });
    expect(await db.prisma.order.count()).toBe(1);
    const row = await db.prisma.outboxEvent.findUniqueOrThrow({ where: { id: event.id } });
    expect(row).toMatchObject({ subject: 'ctk.payments.payment.received', sentAt: null, attempts: 0, lastError: null });
    expect(PaymentEvent.decode(row.payload)).toEqual(event);
  });

  it('leaves neither the order nor the event when the transaction rolls back', async () => {
    const event = paymentEvent();
    const rollback = db.prisma.$transaction(async (tx) => {
      await tx.order.create({ data: { id: event.sourceId, totalMinor: event.amountMinor } });
      await enqueuePaymentEvent(tx, event);
      throw new Error('payment declined after all');
    });
    await expect(rollback).rejects.toThrow('payment declined after all');
    expect(await db.prisma.order.count()).toBe(0);
    expect(await db.prisma.outboxEvent.count()).toBe(0);
  });

  it('puts each event type on its own subject', async () => {
    const types = [
      PaymentEventType.PAYMENT_EVENT_TYPE_PAYMENT_REFUNDED,
      PaymentEventType.PAYMENT_EVENT_TYPE_PREPAID_ISSUED,
      PaymentEventType.PAYMENT_EVENT_TYPE_PREPAID_REDEEMED,
    ];
    const written = await db.prisma.$transaction(async (tx) =>
      Promise.all(types.map((type) => enqueuePaymentEvent(tx, paymentEvent({ type })))),
    );
    expect(written.map((row) => row.subject)).toEqual([
      'ctk.payments.payment.refunded',
      'ctk.payments.prepaid.issued',
      'ctk.payments.prepaid.redeemed',
    ]);
  });

  it('refuses an event without an id or a known type, failing the whole transaction', async () => {
    for (const event of [paymentEvent({ id: '' }), paymentEvent({ type: PaymentEventType.PAYMENT_EVENT_TYPE_UNSPECIFIED })]) {
      const attempt = db.prisma.$transaction(async (tx) => {
        await tx.order.create({ data: { id: event.sourceId, totalMinor: 1n } });
        await enqueuePaymentEvent(tx, event);
      });
      await expect(attempt).rejects.toMatchObject({ code: 'bad_request' });
    }
    expect(await db.prisma.order.count()).toBe(0);
  });

  it('refuses a second event with the same id', async () => {
    const event = paymentEvent();
    await db.prisma.$transaction((tx) => enqueuePaymentEvent(tx, event));
    await expect(db.prisma.$transaction((tx) => enqueuePaymentEvent(tx, event))).rejects.toThrow();
    expect(await db.prisma.outboxEvent.count()).toBe(1);
  });
});
