import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { connectNatsTransport, type NatsTransportOptions } from '../src/events/nats-transport.js';
import type { EventMessage, EventTransport } from '../src/events/transport.js';
import { eventually } from '../src/testing/eventually.js';
import { closeAdmin, deleteStream, NATS_URL, natsProxy, storedMessages, streamInfo, testStream, uniqueName } from '../src/testing/nats.js';
import { silentLogger } from './fixtures/silent-logger.js';

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});
afterAll(closeAdmin);

/** A transport on a stream of the test's own, closed (and the stream deleted) after the test. */
async function open(options: Partial<NatsTransportOptions> = {}) {
  const stream = testStream();
  const transport = await connectNatsTransport({
    url: NATS_URL,
    logger: silentLogger(),
    stream,
    retryDelayMs: 100,
    publishTimeoutMs: 2_000,
    reconnectTimeWaitMs: 100,
    ...options,
  });
  cleanups.push(
    () => deleteStream(stream.name),
    () => transport.close(),
  );
  const message = (id: string): EventMessage => ({ id, subject: stream.subject, data: new TextEncoder().encode(id) });
  return { transport, stream, message };
}

async function collect(transport: EventTransport, durable = uniqueName('test'), fail?: (m: EventMessage) => boolean) {
  const seen: Array<[string, number | undefined]> = [];
  const subscription = await transport.consume(durable, async (m) => {
    seen.push([m.id, m.deliveryCount]);
    if (fail?.(m)) throw new Error('handler failed');
  });
  cleanups.push(() => subscription.stop());
  return seen;
}

describe('connectNatsTransport', () => {
  it('creates the payments stream on ctk.payments.> and ctk.orders.> with file storage and a 24-hour duplicate window', async () => {
    const transport = await connectNatsTransport({ url: NATS_URL, logger: silentLogger() });
    try {
      const info = await eventually(() => streamInfo('CTK_PAYMENTS'));
      expect(info.config).toMatchObject({
        subjects: ['ctk.payments.>', 'ctk.orders.>'],
        storage: 'file',
        duplicate_window: 24 * 3600 * 1e9,
      });
    } finally {
      await transport.close();
    }
  });

  it('stores a message published twice under the same id once', async () => {
    const { transport, stream, message } = await open();
    await transport.publish(message('event-1'));
    await transport.publish(message('event-1'));
    await transport.publish(message('event-2'));
    expect(await storedMessages(stream.name)).toEqual([
      ['event-1', stream.subject],
      ['event-2', stream.subject],
    ]);
  });

  it('delivers each message with its event id to a durable consumer', async () => {
    const { transport, message } = await open();
    await transport.publish(message('before-subscribing'));
    const seen = await collect(transport);
    await transport.publish(message('after-subscribing'));
    await eventually(() =>
      expect(seen).toEqual([
        ['before-subscribing', 1],
        ['after-subscribing', 1],
      ]),
    );
  });

  it('delivers a message again, with deliveryCount 2, when its handler failed once', async () => {
    const { transport, message } = await open();
    const seen = await collect(transport, undefined, (m) => m.deliveryCount === 1);
    await transport.publish(message('flaky'));
    await eventually(() =>
      expect(seen).toEqual([
        ['flaky', 1],
        ['flaky', 2],
      ]),
    );
  });

  it('gives each durable consumer every message, and a durable resumes where it stopped', async () => {
    const { transport, message } = await open();
    const durable = uniqueName('books');
    const first: string[] = [];
    const subscription = await transport.consume(durable, async (m) => void first.push(m.id));
    const other = await collect(transport);
    await transport.publish(message('a'));
    await eventually(() => expect(first).toEqual(['a']));
    await subscription.stop();
    await transport.publish(message('b'));
    const resumed = await collect(transport, durable);
    await eventually(() => expect(resumed).toEqual([['b', 1]]));
    await eventually(() => expect(other.map(([id]) => id)).toEqual(['a', 'b']));
  });

  it('rejects a publish while NATS is unreachable, and closes promptly', async () => {
    const transport = await connectNatsTransport({
      url: 'nats://127.0.0.1:1',
      logger: silentLogger(),
      publishTimeoutMs: 300,
      reconnectTimeWaitMs: 100,
    });
    const subscription = await transport.consume(uniqueName('test'), async () => undefined);
    await expect(transport.publish({ id: 'x', subject: 'ctk.payments.payment.received', data: new Uint8Array() })).rejects.toThrow(
      /not connected/,
    );
    const started = Date.now();
    await subscription.stop();
    await transport.close();
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it('connects once NATS comes up, and keeps consuming across a dropped connection; connected() says which it is', async () => {
    const proxy = await natsProxy();
    await proxy.down();
    const { transport, message } = await open({ url: proxy.url, publishTimeoutMs: 500 });
    const seen = await collect(transport);
    await expect(transport.publish(message('while-down'))).rejects.toThrow();
    expect(transport.connected?.()).toBe(false);
    await proxy.up();
    await eventually(() => transport.publish(message('after-start')));
    expect(transport.connected?.()).toBe(true);
    await eventually(() => expect(seen.map(([id]) => id)).toContain('after-start'));

    await proxy.down();
    await expect(transport.publish(message('dropped'))).rejects.toThrow();
    await eventually(() => expect(transport.connected?.()).toBe(false));
    await proxy.up();
    await eventually(() => transport.publish(message('after-reconnect')));
    await eventually(() => expect(seen.map(([id]) => id)).toContain('after-reconnect'), 15_000);
    // Up again once the server has answered after the client's subscriptions were sent again.
    await eventually(() => expect(transport.connected?.()).toBe(true));
    cleanups.push(() => proxy.down());
  });

  it('announces to every connection listening; a dropped connection is told it missed some, and hears again once back', async () => {
    const subject = `ctk.announcements.${uniqueName('test')}`;
    const proxy = await natsProxy();
    cleanups.push(() => proxy.down());
    const { transport: saying } = await open();
    const { transport: hearing } = await open({ url: proxy.url });
    const heard: string[] = [];
    let missed = 0;
    const listening = hearing.listen!(subject, {
      heard: (data) => void heard.push(new TextDecoder().decode(data)),
      missed: () => void (missed += 1),
    });
    cleanups.push(async () => listening.stop());
    await eventually(() => expect(listening.listening()).toBe(true));
    await saying.announce!(subject, new TextEncoder().encode('first'));
    await eventually(() => expect(heard).toEqual(['first']));

    await proxy.down();
    await eventually(() => expect(missed).toBe(1));
    expect(listening.listening()).toBe(false);
    // Refused at once while down, rather than held for the broker: no one on it is listening either.
    const started = Date.now();
    await expect(hearing.announce!(subject, new TextEncoder().encode('from-the-dropped'))).rejects.toThrow(/not connected/);
    expect(Date.now() - started).toBeLessThan(500);
    await saying.announce!(subject, new TextEncoder().encode('while-down'));
    await proxy.up();
    await eventually(() => expect(listening.listening()).toBe(true), 15_000);
    await saying.announce!(subject, new TextEncoder().encode('after-reconnect'));
    await eventually(() => expect(heard).toEqual(['first', 'after-reconnect']));
  });
});
