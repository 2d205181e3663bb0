import { openingPrisma } from '../db/open-database.js';
import type { Sql } from '../db/sql.js';
import { announcementsOn } from '../events/announcements.js';
import { openEventTransport } from '../events/event-source.js';
import { measuredConsumers } from '../events/measured-consumers.js';
import { startOutboxRelay, unsentOutbox } from '../events/outbox-relay.js';
import type { EventTransport } from '../events/transport.js';
import { startGrpcServer } from '../grpc/server.js';
import { createLogger, type Logger } from '../logger.js';
import { markAppRunning, watchBrokerConnection, watchOutbox } from '../metrics/metrics.js';
import { flushTraces, startTracing } from '../tracing/tracing.js';
import { startMetricsListener } from '../metrics/metrics-listener.js';
import { watchReadiness, type ReadinessChecks } from './readiness.js';
import type { BaseConfig, ServiceDefinition, ServiceParts } from './define-service.js';
import { SERVICES, type AppName, type ServiceName } from './registry.js';

export type StartOptions<O> = Partial<O> & {
  logger?: Logger;
  /**
   * The transport events travel on (the embedded default's in-process one, or a test's) instead of
   * NATS_URL. The caller owns it: the app stops its relay and consumer on close, never the transport.
   */
  transport?: EventTransport;
  /** How often a gRPC service checks its database and broker (its readiness); 5 s by default. */
  readinessPeriodMs?: number;
};

export type RunningService = {
  /** Where it listens: the gRPC port, or the gateway's HTTP port. */
  port: number;
  /** Where Prometheus reads its metrics (GET /metrics): the port METRICS_PORT took; absent without one. */
  metricsPort?: number;
  /** Stops taking calls, stops consuming, publishes what its outbox holds, releases the rest, closes the database. */
  close(): Promise<void>;
};

type Closer = () => Promise<void>;

/**
 * The one bootstrap of every app: starts tracing (trace context and request ids always; spans exported
 * with OTEL_EXPORTER_OTLP_ENDPOINT), serves its metrics (with METRICS_PORT), opens its transport, builds it
 * while its database opens and migrates, then relays its outbox (an app that emits), subscribes its consumer (an
 * app that consumes), serves gRPC with health (or the gateway's HTTP), and closes all of it in the reverse order.
 * A failure part-way closes what had started.
 */
export async function startService<C extends BaseConfig, P, O>(
  definition: ServiceDefinition<C, P, O>,
  config: C,
  options: StartOptions<O> = {},
): Promise<RunningService> {
  const { logger = createLogger(definition.name, config.LOG_LEVEL as never), transport, readinessPeriodMs, ...appOptions } = options;
  // The process's tracing, named for this app unless the process started it first (the embedded default).
  await startTracing(`ctk-${definition.name}`);
  const stopped = markAppRunning(definition.name);
  const closers: Closer[] = [async () => stopped(), flushTraces];
  const closeAll = async () => {
    for (const close of closers.splice(0).reverse()) await close();
  };
  try {
    const metrics = await serveMetrics(definition.name, config, logger, closers);
    // The app is built while its database opens: what it sends meanwhile waits for the open (decision 0067).
    const { prisma, sql, opened } = openDatabase(definition, config, closers);
    const broker = await openBroker(definition.name, config, { logger, transport }, closers);
    let notify = () => undefined as void;
    const context = { config, logger, prisma, sql, eventsCommitted: () => notify(), announcements: announcementsOn(broker) };
    const parts = await definition.build(context, appOptions as Partial<O>);
    if (parts.close) closers.push(parts.close);
    // Nothing relays, consumes or serves before the database is open and migrated.
    await opened;
    const events = await startEvents(definition, parts, { config, logger, transport: broker, sql }, closers);
    notify = events.notify;
    const server = await serve(definition.name, parts, config, logger, closers);
    // A gRPC service reports itself not serving while its database does not answer (its readiness). Not while
    // NATS is down: every replica shares the one broker, and its outbox keeps the events until NATS is back, so
    // taking them all out of service would turn an outage the outbox absorbs into one that refuses payments.
    if (server.setServing) {
      const database = definition.database ? (prisma as ReadinessChecks['database']) : undefined;
      const stop = watchReadiness({ database }, server.setServing, logger, readinessPeriodMs);
      closers.push(async () => stop());
    }
    return { port: server.port, metricsPort: metrics?.port, close: closeAll };
  } catch (error) {
    await closeAll().catch((closeError: unknown) =>
      logger.error({ err: closeError }, `${definition.name} did not close after failing to start`),
    );
    throw error;
  }
}

/**
 * The metrics listener on METRICS_PORT, where the app's own server listens (GRPC_HOST, the gateway's HOST):
 * first, so that it answers while the app starts and stops.
 */
async function serveMetrics<C extends BaseConfig>(name: AppName, config: C, logger: Logger, closers: Closer[]) {
  if (config.METRICS_PORT === undefined) return undefined;
  const listener = await startMetricsListener({ host: config.GRPC_HOST ?? config.HOST ?? '127.0.0.1', port: config.METRICS_PORT });
  closers.push(listener.close);
  logger.info({ metricsPort: listener.port }, `${name} metrics at GET /metrics`);
  return listener;
}

function openDatabase<C extends BaseConfig, P>(
  definition: Pick<ServiceDefinition<C, P, unknown>, 'name' | 'database'>,
  config: C,
  closers: Closer[],
): { prisma: P; sql: Sql; opened: Promise<void> } {
  if (!definition.database) return { prisma: undefined as P, sql: undefined as unknown as Sql, opened: Promise.resolve() };
  const { prisma, sql, opened, close } = openingPrisma(
    {
      service: definition.name,
      databaseUrl: config.DATABASE_URL,
      dataDir: config.CTK_DATA_DIR ?? '.data',
      prismaDir: definition.database.prismaDir,
    },
    definition.database.createClient as never,
  );
  closers.push(close);
  return { prisma: prisma as P, sql, opened };
}

/**
 * The transport the app's events and announcements travel on: the one given, else NATS at NATS_URL (for an app
 * whose configuration takes it), else none. Whether the broker is connected is shown where it can tell.
 */
async function openBroker<C extends BaseConfig>(
  name: AppName,
  config: C,
  context: { logger: Logger; transport: EventTransport | undefined },
  closers: Closer[],
): Promise<EventTransport | undefined> {
  const events = await openEventTransport({ transport: context.transport, natsUrl: config.NATS_URL, name, logger: context.logger });
  closers.push(events.close);
  // Whether NATS is reachable is shown, not made readiness (see where readiness is watched).
  if (events.transport?.connected) {
    const unwatch = watchBrokerConnection(events.transport.connected.bind(events.transport));
    closers.push(async () => unwatch());
  }
  return events.transport;
}

/**
 * The relay of an emitting app and the consumer of a consuming one, on the app's transport: how to wake the
 * relay (nothing to wake without a transport).
 */
async function startEvents<C extends BaseConfig>(
  definition: Pick<ServiceDefinition<C, unknown, unknown>, 'name' | 'emits'>,
  parts: ServiceParts,
  context: { config: C; logger: Logger; transport: EventTransport | undefined; sql: Sql },
  closers: Closer[],
): Promise<{ notify: () => void }> {
  const { config, logger, transport } = context;
  const none = { notify: () => undefined };
  if (!definition.emits && !parts.consume) return none;
  // An app whose schema drops NATS_URL would keep its events in its outbox for good, in production too.
  if (!transport && !config.NATS_URL && process.env.NATS_URL)
    throw new Error(
      `${definition.name} ${definition.emits ? 'emits' : 'consumes'} events, but its configuration drops NATS_URL: add eventConfigFields to its config schema`,
    );
  // What the outbox holds is shown whether or not a transport takes it (without one, it only grows).
  if (definition.emits) {
    const unwatch = watchOutbox(() => unsentOutbox(context.sql));
    closers.push(async () => unwatch());
  }
  if (!transport) {
    logger.warn(
      {},
      `NATS_URL is not set and no transport was given: ${definition.name} ${definition.emits ? 'keeps its events in its outbox' : 'consumes no events'}`,
    );
    return none;
  }
  if (parts.consume) {
    const subscription = await parts.consume(measuredConsumers(transport));
    closers.push(() => subscription.stop());
  }
  if (!definition.emits) return none;
  const relay = startOutboxRelay({ sql: context.sql, transport, logger });
  closers.push(() => relay.stop());
  return { notify: () => relay.notify() };
}

async function serve<C extends BaseConfig>(
  name: AppName,
  parts: ServiceParts,
  config: C,
  logger: Logger,
  closers: Closer[],
): Promise<{ port: number; setServing?: (serving: boolean) => void }> {
  if (parts.http) {
    const port = await parts.http.listen();
    closers.push(parts.http.close);
    return { port };
  }
  if (!isServiceName(name) || !parts.grpc) throw new Error(`${name} serves neither gRPC (as a registered service) nor HTTP`);
  const server = await startGrpcServer({
    name,
    address: `${config.GRPC_HOST ?? '127.0.0.1'}:${config.GRPC_PORT ?? 0}`,
    logger,
    services: [[SERVICES[name].definition, parts.grpc]],
  });
  closers.push(() => server.shutdown());
  return { port: server.port, setServing: server.setServing };
}

function isServiceName(name: AppName): name is ServiceName {
  return name in SERVICES;
}
