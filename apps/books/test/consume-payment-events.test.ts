import { randomUUID } from 'node:crypto';
import { OrderChanged } from '@ctk/proto/ctk/events/v1/order_event';
import { PaymentEvent } from '@ctk/proto/ctk/events/v1/payment_event';
import {
  BOOKS_CONSUMER,
  createLogger,
  ORDER_CHANGED_SUBJECT,
  inProcessTransport,
  type EventMessage,
  type EventTransport,
} from '@ctk/shared';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { eventually } from '@ctk/shared/testing';
import type { PostingDeps } from '../src/domain/post-payment-event.js';
import { consumePaymentEvents } from '../src/events/consume-payment-events.js';
import { deliveryWatch } from './fixtures/delivery-watch.js';
import { newEvent, openTestJournal } from './support.js';

const messageOf = (event: PaymentEvent, id = event.id): EventMessage => ({
  id,
  subject: 'ctk.payments.payment.received',
  data: PaymentEvent.encode(event).finish(),
});
const settle = () => new Promise((resolve) => setTimeout(resolve, 200));

describe('the books consumer of payment events', () => {
  let books: Awaited<ReturnType<typeof openTestJournal>>;
  let transport: EventTransport;
  let watch: ReturnType<typeof deliveryWatch>;
  beforeAll(async () => {
    books = await openTestJournal();
  });
  afterAll(() => books.close());
  beforeEach(() => {
    vi.clearAllMocks();
    transport = inProcessTransport({ logger: createLogger('transport', 'silent'), retryDelayMs: 10 });
    watch = deliveryWatch();
  });
  afterEach(() => transport.close());

  const consume = (deps: PostingDeps = books.deps) => consumePaymentEvents(watch.wrap(transport), deps);

  it('subscribes as the books durable consumer', async () => {
    const consumeSpy = vi.spyOn(transport, 'consume');
    await consumePaymentEvents(transport, books.deps);
    expect(consumeSpy).toHaveBeenCalledWith(BOOKS_CONSUMER, expect.any(Function));
  });

  it('posts a delivered event and acknowledges it', async () => {
    const event = newEvent(randomUUID());
    await consume();
    await transport.publish(messageOf(event));
    await eventually(() => expect(watch.handled).toContain(event.id));
    expect(await books.entriesOf(event.organizationId)).toHaveLength(1);
    expect(watch.deliveries.get(event.id)).toBe(1);
  });

  it('acknowledges the same event under another message id as a duplicate, posting nothing more', async () => {
    const event = newEvent(randomUUID());
    await consume();
    await transport.publish(messageOf(event));
    await transport.publish(messageOf(event, 'the-same-event-again'));
    await eventually(() => expect(watch.handled).toContain('the-same-event-again'));
    expect(await books.entriesOf(event.organizationId)).toHaveLength(1);
    expect(watch.redeliveries()).toBe(0);
  });

  it('parks an event that cannot be posted and acknowledges it, never delivering it again', async () => {
    const event = newEvent(randomUUID(), { taxMinor: 5_000n });
    await consume();
    await transport.publish(messageOf(event));
    await eventually(() => expect(watch.handled).toContain(event.id));
    await settle();
    expect((await books.deps.parked.find(event.id))?.reason).toMatch(/tax_minor must not exceed/);
    expect(watch.deliveries.get(event.id)).toBe(1);
  });

  it('parks a message that is not a payment event under a hash of its bytes, once, and acknowledges it', async () => {
    const garbage = Uint8Array.from([0x0a, 0xff, 0xff, 0xff, 0xff, 0x0f]); // field 1, a length beyond the end
    expect(() => PaymentEvent.decode(garbage)).toThrow();
    await consume();
    await transport.publish({ id: 'garbage-1', subject: 'ctk.payments.payment.received', data: garbage });
    await transport.publish({ id: 'garbage-2', subject: 'ctk.payments.payment.received', data: garbage });
    await eventually(() => expect(watch.handled).toEqual(new Set(['garbage-1', 'garbage-2'])));
    await settle();
    expect(watch.redeliveries()).toBe(0);

    const parked = await books.prisma.parkedEvent.findMany({ where: { reason: { contains: 'garbage-1' } } });
    expect(parked).toHaveLength(1);
    expect(parked[0]).toMatchObject({ organizationId: '', payload: garbage });
    expect(parked[0]?.eventId).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(parked[0]?.reason).toMatch(
      /^not a ctk\.events\.v1\.PaymentEvent: .+ \(message garbage-1 on ctk\.payments\.payment\.received\)$/,
    );
    expect(books.logged.error).toHaveBeenCalledTimes(1);
    expect(books.logged.error).toHaveBeenCalledWith(
      expect.objectContaining({ messageId: 'garbage-1' }),
      'payment event parked: it cannot be decoded',
    );
    expect(books.logged.warn).toHaveBeenCalledWith(expect.objectContaining({ messageId: 'garbage-2' }), expect.any(String));
  });

  it('acknowledges a change of an order, the stream’s other subject, without posting or parking it', async () => {
    const event = newEvent(randomUUID());
    const change = OrderChanged.encode(
      OrderChanged.fromPartial({
        id: 'pos.order-changed.1',
        organizationId: event.organizationId,
        orderNumber: '7Q2M9K4X1C',
        version: 1n,
        status: 'paid',
      }),
    ).finish();
    await consume();
    await transport.publish({ id: 'order-change-1', subject: ORDER_CHANGED_SUBJECT, data: change });
    await eventually(() => expect(watch.handled).toContain('order-change-1'));
    await settle();
    expect(watch.redeliveries()).toBe(0);
    expect(await books.entriesOf(event.organizationId)).toHaveLength(0);
    // Decoded as a payment event, its id (field 1 of both) would be parked as one of no known type.
    expect(await books.deps.parked.find('pos.order-changed.1')).toBeNull();
    expect(await books.prisma.parkedEvent.count({ where: { reason: { contains: 'order-change-1' } } })).toBe(0);
  });

  it('lets the transport deliver again when posting fails, as when the database is unavailable, and then posts once', async () => {
    const event = newEvent(randomUUID());
    let calls = 0;
    const journal = books.deps.journal;
    const unreachableOnce: PostingDeps['journal'] = {
      ...journal,
      post: async (entry, chart) => {
        calls += 1;
        if (calls === 1) throw new Error("Can't reach database server at 127.0.0.1:5432");
        return journal.post(entry, chart);
      },
    };
    await consume({ ...books.deps, journal: unreachableOnce });
    await transport.publish(messageOf(event));
    await eventually(() => expect(watch.handled).toContain(event.id));
    expect(watch.deliveries.get(event.id)).toBe(2);
    expect(await books.entriesOf(event.organizationId)).toHaveLength(1);
  });

  it('answers a redelivery after a lost acknowledgement as a duplicate, posting the event once', async () => {
    const event = newEvent(randomUUID());
    watch = deliveryWatch({ after: [event.id] });
    await consume();
    await transport.publish(messageOf(event));
    await eventually(() => expect(watch.handled).toContain(event.id));
    expect(watch.deliveries.get(event.id)).toBe(2);
    expect(await books.entriesOf(event.organizationId)).toHaveLength(1);
    expect(books.logged.info).toHaveBeenCalledWith(
      expect.objectContaining({ eventId: event.id, deliveryCount: 2, outcome: 'duplicate' }),
      'payment event redelivered',
    );
  });
});
