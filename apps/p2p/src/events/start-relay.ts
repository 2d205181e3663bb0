import { openEventTransport, startOutboxRelay, type EventTransport, type Logger, type OutboxPrisma } from '@ctk/shared';

export type RelaySource = { transport?: EventTransport | undefined; natsUrl?: string | undefined };
export type Relay = { notify(): void; stop(): Promise<void> };

/**
 * Publishes p2p's outbox (payment events) to the given transport, else to NATS_URL; without either the
 * events stay in the outbox until a relay runs. notify() after a commit publishes it now rather than at
 * the relay's next poll; stop() publishes what is pending, then releases what it started.
 */
export async function startRelay(source: RelaySource, prisma: OutboxPrisma, logger: Logger): Promise<Relay> {
  const events = await openEventTransport({ ...source, name: 'p2p', logger });
  if (!events.transport) {
    logger.warn({}, 'NATS_URL is not set and no transport was given: payment events stay in the p2p outbox');
    return { notify: () => undefined, stop: async () => undefined };
  }
  const relay = startOutboxRelay({ prisma, transport: events.transport, logger });
  return {
    notify: () => relay.notify(),
    async stop() {
      await relay.stop();
      await events.close();
    },
  };
}
