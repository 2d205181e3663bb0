import { jetstream, jetstreamManager, type JetStreamClient, type JetStreamManager } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { ensureStream, type StreamSpec } from './nats-setup.js';
import type { EventLogger } from './transport.js';
import { Wakeup } from './wakeup.js';
import { within } from './within.js';

export type NatsSession = { nc: NatsConnection; js: JetStreamClient; jsm: JetStreamManager };

export type NatsSessionOptions = {
  url: string;
  name: string;
  logger: EventLogger;
  stream: StreamSpec;
  reconnectTimeWaitMs: number;
  requestTimeoutMs: number;
};

/** How long close() lets a drain flush before closing outright (a drain waits for a reconnect). */
const DRAIN_LIMIT_MS = 5_000;

/**
 * A connection made in the background: a service starts while NATS is down (its events wait in the
 * outbox) and connects when NATS comes up. Once connected the client reconnects forever by itself.
 */
export function openNatsSession(options: NatsSessionOptions): {
  ready: Promise<NatsSession>;
  /** Whether the connection is up now: made, and not lost since (the client is reconnecting). */
  connected(): boolean;
  /** Calls `lost` each time the connection is lost, until the returned function is called. */
  onLost(lost: () => void): () => void;
  close(): Promise<void>;
} {
  const { logger, url } = options;
  const wakeup = new Wakeup();
  let closed = false;
  let session: NatsSession | undefined;
  const link = { up: false, drops: 0, lost: new Set<() => void>() };
  let settle!: { resolve(session: NatsSession): void; reject(error: Error): void };
  const ready = new Promise<NatsSession>((resolve, reject) => (settle = { resolve, reject }));
  ready.catch(() => undefined);

  async function attempt(): Promise<NatsSession> {
    const nc = await connect({
      servers: url,
      name: options.name,
      maxReconnectAttempts: -1,
      reconnectTimeWait: options.reconnectTimeWaitMs,
    });
    try {
      const jsm = await jetstreamManager(nc, { timeout: options.requestTimeoutMs });
      await ensureStream(jsm, options.stream);
      return { nc, jsm, js: jetstream(nc, { timeout: options.requestTimeoutMs }) };
    } catch (error) {
      await nc.close().catch(() => undefined);
      throw error;
    }
  }

  const establishing = (async () => {
    for (let failures = 0; !closed; failures += 1) {
      try {
        session = await attempt();
        break;
      } catch (error) {
        if (failures % 30 === 0) logger.warn({ err: error, url, failures }, 'NATS is not reachable yet; retrying');
        await wakeup.wait(options.reconnectTimeWaitMs);
      }
    }
    if (!session || closed) return settle.reject(new Error('NATS transport closed before it connected'));
    logger.info({ url, stream: options.stream.name }, 'NATS connected');
    link.up = true;
    watchStatus(session, options, link);
    settle.resolve(session);
  })();

  return {
    ready,
    connected: () => link.up && !closed,
    onLost(lost) {
      link.lost.add(lost);
      return () => link.lost.delete(lost);
    },
    async close() {
      closed = true;
      wakeup.notify();
      await establishing;
      if (!session) return;
      const { nc } = session;
      await within(nc.drain(), DRAIN_LIMIT_MS, 'drain timed out').catch(() => nc.close());
    },
  };
}

/** Logs disconnects and reconnects and keeps `link` up to date; after a reconnect the stream is checked again (the server may be new). */
function watchStatus(session: NatsSession, options: NatsSessionOptions, link: { up: boolean; drops: number; lost: Set<() => void> }): void {
  void (async () => {
    for await (const status of session.nc.status()) {
      if (status.type === 'disconnect') {
        link.up = false;
        link.drops += 1;
        for (const lost of link.lost) lost();
        options.logger.warn({ url: options.url }, 'NATS disconnected; reconnecting');
      }
      if (status.type === 'reconnect') {
        // The client sends its subscriptions again just before saying it reconnected; the server has them once it
        // answers a ping sent after them, and only then is a listener listening again.
        const drops = link.drops;
        void session.nc
          .flush()
          .then(() => void (link.up = link.drops === drops))
          .catch(() => undefined);
        options.logger.info({ url: options.url }, 'NATS reconnected');
        await ensureStream(session.jsm, options.stream).catch((error: unknown) =>
          options.logger.error({ err: error, stream: options.stream.name }, 'cannot ensure the stream after reconnecting'),
        );
      }
    }
  })();
}
