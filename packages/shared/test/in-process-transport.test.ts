import { afterEach, describe, expect, it, vi } from 'vitest';
import { inProcessTransport, type InProcessTransportOptions } from '../src/events/in-process-transport.js';
import type { EventMessage, EventTransport } from '../src/events/transport.js';
import { eventually } from '../src/testing/eventually.js';
import { silentLogger } from './fixtures/silent-logger.js';

const message = (id: string, text = id): EventMessage => ({
  id,
  subject: 'ctk.payments.payment.received',
  data: new TextEncoder().encode(text),
});
const text = (m: EventMessage) => new TextDecoder().decode(m.data);

let transport: EventTransport;
afterEach(() => transport.close());

function open(options: InProcessTransportOptions = {}) {
  transport = inProcessTransport({ logger: silentLogger(), retryDelayMs: 10, ...options });
  return transport;
}

describe('inProcessTransport', () => {
  it('delivers messages published before the consumer subscribed, in order', async () => {
    const t = open();
    await t.publish(message('a'));
    await t.publish(message('b'));
    const seen: string[] = [];
    await t.consume('books', async (m) => void seen.push(m.id));
    await t.publish(message('c'));
    await eventually(() => expect(seen).toEqual(['a', 'b', 'c']));
  });

  it('gives every durable name every message', async () => {
    const t = open();
    const seen: Record<string, string[]> = { books: [], audit: [] };
    await t.consume('books', async (m) => void seen.books!.push(m.id));
    await t.publish(message('a'));
    await t.consume('audit', async (m) => void seen.audit!.push(m.id));
    await t.publish(message('b'));
    await eventually(() => expect(seen).toEqual({ books: ['a', 'b'], audit: ['a', 'b'] }));
  });

  it('delivers a message again when its handler failed, with the delivery count', async () => {
    const t = open();
    const deliveries: Array<[string, number | undefined]> = [];
    await t.consume('books', async (m) => {
      deliveries.push([m.id, m.deliveryCount]);
      if (m.id === 'a' && m.deliveryCount === 1) throw new Error('database busy');
    });
    await t.publish(message('a'));
    await eventually(() =>
      expect(deliveries).toEqual([
        ['a', 1],
        ['a', 2],
      ]),
    );
  });

  it('keeps delivering later messages while a failing one waits for its retry', async () => {
    const t = open();
    const handled: string[] = [];
    await t.consume('books', async (m) => {
      if (m.id === 'poison' && (m.deliveryCount ?? 0) < 3) throw new Error('not yet');
      handled.push(m.id);
    });
    await t.publish(message('poison'));
    await t.publish(message('fine'));
    await eventually(() => expect(handled).toEqual(['fine', 'poison']));
  });

  it('ignores a message whose id was already published', async () => {
    const t = open();
    const seen: string[] = [];
    await t.consume('books', async (m) => void seen.push(text(m)));
    await t.publish(message('a', 'first'));
    await t.publish(message('a', 'again'));
    await t.publish(message('b'));
    await eventually(() => expect(seen).toEqual(['first', 'b']));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(seen).toEqual(['first', 'b']);
  });

  it('resumes a durable where it stopped, without repeating acknowledged messages', async () => {
    const t = open();
    const seen: string[] = [];
    const first = await t.consume('books', async (m) => void seen.push(m.id));
    await t.publish(message('a'));
    await eventually(() => expect(seen).toEqual(['a']));
    await first.stop();
    await t.publish(message('b'));
    await t.consume('books', async (m) => void seen.push(m.id));
    await eventually(() => expect(seen).toEqual(['a', 'b']));
  });

  it('keeps what was published even if the caller changes its buffer afterwards', async () => {
    const t = open();
    const m = message('a', 'paid');
    await t.publish(m);
    m.data.fill(0);
    const seen: string[] = [];
    await t.consume('books', async (got) => void seen.push(text(got)));
    await eventually(() => expect(seen).toEqual(['paid']));
  });

  it('delivers an id published again once its duplicate window has passed', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const t = open({ duplicateWindowMs: 60_000 });
      const seen: string[] = [];
      await t.consume('books', async (m) => void seen.push(text(m)));
      await t.publish(message('a', 'first'));
      vi.advanceTimersByTime(59_000);
      await t.publish(message('a', 'within the window'));
      vi.advanceTimersByTime(2_000);
      await t.publish(message('a', 'after it'));
      await eventually(() => expect(seen).toEqual(['first', 'after it']));
    } finally {
      vi.useRealTimers();
    }
  });

  describe('carrying named durables', () => {
    it('gives each every message published before it subscribed, and refuses a name it does not carry', async () => {
      const t = open({ durables: ['books', 'commerce'] });
      await t.publish(message('a'));
      const seen: Record<string, string[]> = { books: [], commerce: [] };
      await t.consume('books', async (m) => void seen.books!.push(m.id));
      await t.publish(message('b'));
      await t.consume('commerce', async (m) => void seen.commerce!.push(m.id));
      await eventually(() => expect(seen).toEqual({ books: ['a', 'b'], commerce: ['a', 'b'] }));
      await expect(t.consume('audit', async () => undefined)).rejects.toThrow(
        'durable consumer audit is not one this transport carries (books, commerce)',
      );
    });

    it('resumes a durable where it stopped, and delivers again what failed', async () => {
      const t = open({ durables: ['books'] });
      const seen: Array<[string, number | undefined]> = [];
      const first = await t.consume('books', async (m) => void seen.push([m.id, m.deliveryCount]));
      await t.publish(message('a'));
      await eventually(() => expect(seen).toEqual([['a', 1]]));
      await first.stop();
      await t.publish(message('b'));
      await t.consume('books', async (m) => {
        seen.push([m.id, m.deliveryCount]);
        if (m.deliveryCount === 1) throw new Error('database busy');
      });
      await eventually(() =>
        expect(seen).toEqual([
          ['a', 1],
          ['b', 1],
          ['b', 2],
        ]),
      );
    });

    it('lets go of what every durable has handled: a gigabyte carried holds little', async () => {
      const t = open({ durables: ['books', 'commerce'] });
      let handled = 0;
      await t.consume('books', async () => void (handled += 1));
      await t.consume('commerce', async () => void (handled += 1));
      const megabyte = new Uint8Array(1 << 20).fill(7);
      for (let i = 0; i < 1024; i += 1) {
        await t.publish({ id: `m${i}`, subject: 'ctk.orders.changed', data: megabyte });
        if (i % 64 === 63) await eventually(() => expect(handled).toBe(2 * (i + 1)));
      }
      // Kept, the messages' copies would be a gigabyte of array buffers (each published message is copied).
      expect(process.memoryUsage().arrayBuffers).toBeLessThan(256 << 20);
    });
  });

  it('refuses to publish once closed', async () => {
    const t = open();
    await t.close();
    await expect(t.publish(message('a'))).rejects.toThrow(/closed/);
  });

  it('announces to every listener of the subject before announce resolves, and to no one once stopped', async () => {
    const t = open();
    const heard: string[] = [];
    const listener = (name: string) => ({
      heard: (data: Uint8Array) => void heard.push(`${name}:${new TextDecoder().decode(data)}`),
      missed() {},
    });
    const first = t.listen!('ctk.announcements.a', listener('first'));
    t.listen!('ctk.announcements.a', listener('second'));
    t.listen!('ctk.announcements.b', listener('other'));
    expect(first.listening()).toBe(true);
    await t.announce!('ctk.announcements.a', new TextEncoder().encode('x'));
    expect(heard).toEqual(['first:x', 'second:x']);
    first.stop();
    await t.announce!('ctk.announcements.a', new TextEncoder().encode('y'));
    expect(heard).toEqual(['first:x', 'second:x', 'second:y']);
    await t.close();
    expect(first.listening()).toBe(false);
  });
});
