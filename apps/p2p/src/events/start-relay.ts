import { connectNatsTransport, startOutboxRelay, type EventTransport, type Logger, type OutboxPrisma } from '@ctk/shared';

export type RelaySource = {
  /** A transport of the caller's (the embedded default's in-process one, or a test's): used, never closed here. */
  transport?: EventTransport | undefined;
  /** Otherwise, NATS JetStream at this URL, on a connection of p2p's own. */
  natsUrl?: string | undefined;
};

/**
 * Publishes p2p's outbox (payment events) to the given transport, else to NATS_URL; without either the
 * events stay in the outbox until a relay runs. notify() after a commit publishes it now rather than at
 * the relay's next poll; stop() publishes what is pending, then releases what it started.
 */
export async function startRelay(source: RelaySource, prisma: OutboxPrisma, logger: Logger): Promise<Relay> {
  if (source.transport) {
    const relay = startOutboxRelay({ prisma, transport: source.transport, logger });
    return { notify: () => relay.notify(), stop: () => relay.stop() };
  }
  if (source.natsUrl) {
    const transport = await connectNatsTransport({ url: source.natsUrl, logger, name: 'p2p' });
    const relay = startOutboxRelay({ prisma, transport, logger });
    return {
      notify: () => relay.notify(),
      async stop() {
        await relay.stop();
        await transport.close();
      },
    };
  }
  logger.warn({}, 'NATS_URL is not set and no transport was given: payment events stay in the p2p outbox');
  return { notify: () => undefined, stop: async () => undefined };
}

export type Relay = { notify(): void; stop(): Promise<void> };
