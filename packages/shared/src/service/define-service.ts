import type { SqlMigrationAwareDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import type { z } from 'zod';
import type { Sql } from '../db/sql.js';
import type { Announcements } from '../events/announcements.js';
import type { EventTransport } from '../events/transport.js';
import type { Logger } from '../logger.js';
import type { AppName } from './registry.js';

/** The configuration the bootstrap reads; each app's schema adds its own fields (service-config.ts has the common ones). */
export type BaseConfig = {
  LOG_LEVEL: string;
  GRPC_HOST?: string;
  GRPC_PORT?: number;
  /** The gateway's HTTP host; a service listens on GRPC_HOST. Its metrics listener takes the same host. */
  HOST?: string;
  /** Prometheus's metrics at GET /metrics on this port (0: any free port); none when absent. */
  METRICS_PORT?: number | undefined;
  DATABASE_URL?: string | undefined;
  CTK_DATA_DIR?: string;
  NATS_URL?: string | undefined;
};

/** What an app's build step is given. */
export type ServiceContext<C, P> = {
  config: C;
  logger: Logger;
  /** The Prisma client on the app's migrated database (for an app that declares a `database`). */
  prisma: P;
  /** The hottest statements, on the same database without Prisma's client (decision 0048); none without a database. */
  sql: Sql;
  /** Call after a transaction that wrote outbox events committed: the relay publishes them now rather than at its next poll. */
  eventsCommitted(): void;
  /** Says and hears what changed, to and from every replica (decision 0053), on the app's transport. */
  announcements: Announcements;
};

/** What an app serves and holds, as its build step returns it; the bootstrap starts and closes it in order. */
export type ServiceParts = {
  /**
   * The implementation of the service's proto service (its registry row names which), served with
   * grpc.health.v1 beside it: every service but the gateway.
   */
  grpc?: object;
  /** An HTTP server instead (the gateway): listen() answers the port it listens on. */
  http?: { listen(): Promise<number>; close(): Promise<void> };
  /** Subscribes the app's event consumer to the transport (books); stopped before the relay and the database close. */
  consume?(transport: EventTransport): Promise<{ stop(): Promise<void> }>;
  /** Anything else the app holds, released after the server and the events, before the database. */
  close?(): Promise<void>;
};

export type ServiceDefinition<C extends BaseConfig, P, O> = {
  name: AppName;
  configSchema: z.ZodType<C>;
  /** Its own database: the folder holding its Prisma schema and migrations, and how to make its client. */
  database?: { prismaDir: string; createClient(adapter: SqlMigrationAwareDriverAdapterFactory): P };
  /** It writes events to its outbox (@ctk/shared's outbox model): the bootstrap relays them to the transport. */
  emits?: boolean;
  build(context: ServiceContext<C, P>, options: Partial<O>): ServiceParts | Promise<ServiceParts>;
};

/**
 * Declares an app for the one bootstrap (startService, runService): `P` is its Prisma client (`undefined`
 * without a database), `O` the options a caller may pass (a test's chain client).
 */
export function defineService<C extends BaseConfig, P = undefined, O = object>(
  definition: ServiceDefinition<C, P, O>,
): ServiceDefinition<C, P, O> {
  return definition;
}
