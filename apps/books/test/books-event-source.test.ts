import { randomUUID } from 'node:crypto';
import { PaymentEvent } from '@ctk/proto/ctk/events/v1/payment_event';
import { createLogger, inProcessTransport, type EventTransport } from '@ctk/shared';
import { eventually, grpcHealthStatus } from '@ctk/shared/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { newEvent, orgRef, startTestBooks, testBooksDatabase } from './support.js';

const publish = (transport: EventTransport, event: PaymentEvent) =>
  transport.publish({ id: event.id, subject: 'ctk.payments.payment.received', data: PaymentEvent.encode(event).finish() });

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function inProcess(): EventTransport {
  const transport = inProcessTransport({ logger: createLogger('transport', 'silent'), retryDelayMs: 10 });
  cleanups.push(() => transport.close());
  return transport;
}

describe('where books takes payment events from', () => {
  it('consumes from the transport it is given, and leaves that transport open when it closes', async () => {
    const transport = inProcess();
    const books = await startTestBooks({ transport });
    const event = newEvent(randomUUID());
    await publish(transport, event);
    await eventually(async () =>
      expect((await books.client.listJournalEntries({ org: orgRef(event.organizationId) })).entries).toHaveLength(1),
    );
    await books.close();
    await expect(publish(transport, newEvent(randomUUID()))).resolves.toBeUndefined();
  });

  it('on close, lets the event in hand finish posting before it closes the database', async () => {
    const transport = inProcess();
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const started = vi.fn();
    const outcome = vi.fn();
    const holding: EventTransport = {
      ...transport,
      consume: (durable, handler) =>
        transport.consume(durable, async (message) => {
          started();
          await held;
          await handler(message).then(
            () => outcome('acked'),
            (error: unknown) => outcome(error),
          );
        }),
    };
    const books = await startTestBooks({ transport: holding });
    await publish(transport, newEvent(randomUUID()));
    await eventually(() => expect(started).toHaveBeenCalled());
    const closing = books.close();
    setTimeout(release, 200);
    await closing;
    expect(outcome).toHaveBeenCalledExactlyOnceWith('acked');
  });

  it('picks up where it stopped when started again on the same database and durable consumer', async () => {
    const transport = inProcess();
    const database = await testBooksDatabase({ durable: true });
    cleanups.push(() => database.remove());
    const organizationId = randomUUID();
    const first = await startTestBooks({ transport, env: database.env });
    await publish(transport, newEvent(organizationId));
    await eventually(async () => expect((await first.client.listJournalEntries({ org: orgRef(organizationId) })).entries).toHaveLength(1));
    await first.close();
    await publish(transport, newEvent(organizationId));
    const second = await startTestBooks({ transport, env: database.env });
    cleanups.push(() => second.close());
    await eventually(async () => expect((await second.client.listJournalEntries({ org: orgRef(organizationId) })).entries).toHaveLength(2));
  });

  it('with NATS_URL set, starts and serves while NATS is unreachable, and closes promptly', async () => {
    const { env } = await testBooksDatabase();
    const books = await startTestBooks({ env: { ...env, NATS_URL: 'nats://127.0.0.1:1' } });
    expect(await grpcHealthStatus(`127.0.0.1:${books.port}`)).toBe('SERVING');
    const started = Date.now();
    await books.close();
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  it('with neither a transport nor NATS_URL, consumes nothing and warns once that it consumes no events', async () => {
    const logger = createLogger('books', 'silent');
    const warn = vi.spyOn(logger, 'warn');
    const books = await startTestBooks({ logger });
    cleanups.push(() => books.close());
    const notices = warn.mock.calls.filter(([, message]) => String(message).includes('NATS_URL'));
    expect(notices).toEqual([[{}, 'NATS_URL is not set and no transport was given: books consumes no events']]);
  });
});
