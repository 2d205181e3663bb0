import type { EventLogger, EventTransport } from './transport.js';

export type EventSourceOptions = {
  /** A transport of the caller's (the embedded default's in-process one, or a test's): used, never closed here. */
  transport?: EventTransport | undefined;
  /** Otherwise, NATS JetStream at this URL, on a connection of the app's own. */
  natsUrl?: string | undefined;
  /** The app, as it names its NATS connection. */
  name: string;
  logger: EventLogger;
};

/**
 * The transport an app's events travel on: the one it was given, else a NATS connection of its own, else
 * none (undefined). close() closes only what this opened.
 */
export async function openEventTransport(
  options: EventSourceOptions,
): Promise<{ transport: EventTransport | undefined; close(): Promise<void> }> {
  if (options.transport) return { transport: options.transport, close: async () => undefined };
  if (!options.natsUrl) return { transport: undefined, close: async () => undefined };
  // Loaded only here: an app on the in-process transport (the embedded default) does not load NATS's client.
  const { connectNatsTransport } = await import('./nats-transport.js');
  const transport = await connectNatsTransport({ url: options.natsUrl, logger: options.logger, name: options.name });
  return { transport, close: () => transport.close() };
}
