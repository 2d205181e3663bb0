import { randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FederationServiceDefinition, type FederationServiceImplementation } from '@ctk/proto/ctk/federation/v1/federation';
import { PaymentEvent, PaymentEventType } from '@ctk/proto/ctk/events/v1/payment_event';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { MIGRATION_LOCK } from '../src/db/migrate.js';
import type { Sql } from '../src/db/sql.js';
import { createGrpcClient } from '../src/grpc/client.js';
import { createLogger } from '../src/logger.js';
import { enqueuePaymentEvent } from '../src/events/outbox.js';
import { inProcessTransport } from '../src/events/in-process-transport.js';
import type { EventMessage, EventTransport } from '../src/events/transport.js';
import { defineService } from '../src/service/define-service.js';
import { startService } from '../src/service/start-service.js';
import { grpcHealthStatus } from '../src/testing/grpc-health.js';
import { startBuiltService } from '../src/testing/start-built-service.js';
import { eventually } from '../src/testing/eventually.js';
import { createTestDatabase, TEST_DATA_DIR } from '../src/testing/test-database.js';
import { PrismaClient } from './fixtures/outbox/generated/client.js';

const PRISMA_DIR = fileURLToPath(new URL('./fixtures/outbox', import.meta.url));
const silent = createLogger('test', 'silent');
// Only GetSetup is called: the bootstrap serves whatever implementation it is given, so every other method
// answers "not built" (the server needs a function for each method of the definition).
const federation = {
  ...Object.fromEntries(
    Object.keys(FederationServiceDefinition.methods).map((method) => [
      method,
      async () => {
        throw new Error(`${method} is not part of this test`);
      },
    ]),
  ),
  getSetup: async () => ({ capabilities: [] }),
} as unknown as FederationServiceImplementation;
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function config(extra: Record<string, unknown> = {}) {
  const databaseUrl = await createTestDatabase('bootstrap');
  return { LOG_LEVEL: 'silent', GRPC_HOST: '127.0.0.1', GRPC_PORT: 0, CTK_DATA_DIR: TEST_DATA_DIR, DATABASE_URL: databaseUrl, ...extra };
}

/**
 * A service on the outbox fixture's database (or the migrations in `prismaDir`) that records what happens to it,
 * in order; `atBuild` runs as it is built, on its Prisma client and Sql.
 */
function recordingService(
  events: string[],
  options: {
    emits?: boolean;
    failBuild?: boolean;
    prismaDir?: string;
    atBuild?: (context: { prisma: PrismaClient; sql: Sql }) => Promise<void>;
  } = {},
) {
  return defineService<{ LOG_LEVEL: string }, PrismaClient>({
    name: 'federation',
    configSchema: undefined as never,
    database: {
      prismaDir: options.prismaDir ?? PRISMA_DIR,
      createClient: (adapter) => {
        events.push('client made');
        const prisma = new PrismaClient({ adapter });
        const disconnect = prisma.$disconnect.bind(prisma);
        return Object.assign(prisma, { $disconnect: () => (events.push('database closed'), disconnect()) });
      },
    },
    emits: options.emits,
    build: async ({ prisma, sql }) => {
      if (options.failBuild) throw new Error('build failed');
      await options.atBuild?.({ prisma, sql });
      events.push('built');
      return {
        grpc: federation,
        consume: async () => {
          events.push('consumer started');
          return { stop: async () => void events.push('consumer stopped') };
        },
        close: async () => void events.push('app closed'),
      };
    },
  });
}

function watchedTransport(): EventTransport & { published: EventMessage[] } {
  const transport = inProcessTransport();
  const published: EventMessage[] = [];
  return {
    ...transport,
    published,
    async publish(message) {
      published.push(message);
      await transport.publish(message);
    },
  };
}

describe('startService, the one bootstrap', () => {
  it('serves the registry proto service with health, and closes server, consumer, app and database in the reverse order', async () => {
    const events: string[] = [];
    const transport = watchedTransport();
    cleanups.push(() => transport.close());
    const running = await startService(recordingService(events), await config(), { logger: silent, transport });
    const address = `127.0.0.1:${running.port}`;
    expect(await grpcHealthStatus(address, FederationServiceDefinition.fullName)).toBe('SERVING');
    const client = createGrpcClient(FederationServiceDefinition, address);
    expect(await client.getSetup({ org: { id: randomUUID(), handle: 'corner-cafe' } })).toEqual({ capabilities: [] });
    client.close();

    await running.close();
    expect(events).toEqual(['client made', 'built', 'consumer started', 'consumer stopped', 'app closed', 'database closed']);
    await expect(grpcHealthStatus(address)).rejects.toThrow();
  });

  it('keeps serving while its broker is not connected: its outbox holds the events meanwhile', async () => {
    const broker = { up: true };
    const transport = Object.assign(watchedTransport(), { connected: () => broker.up });
    cleanups.push(() => transport.close());
    const running = await startService(recordingService([], { emits: true }), await config(), {
      logger: silent,
      transport,
      readinessPeriodMs: 50,
    });
    cleanups.push(() => running.close());
    broker.up = false;
    await new Promise((later) => setTimeout(later, 300));
    expect(await grpcHealthStatus(`127.0.0.1:${running.port}`, FederationServiceDefinition.fullName)).toBe('SERVING');
  });

  it('reports itself not serving while its database does not answer', async () => {
    const events: string[] = [];
    const service = recordingService(events);
    const running = await startBuiltService(
      service,
      async (context, options) => ({ parts: await service.build(context, options), ...context }),
      await config(),
      { logger: silent, transport: watchedTransport(), readinessPeriodMs: 50 },
    );
    cleanups.push(() => running.close().catch(() => undefined));
    const address = `127.0.0.1:${running.port}`;
    expect(await grpcHealthStatus(address)).toBe('SERVING');
    // What the readiness check sends, failing as it does when the server is down.
    const query = running.prisma.$queryRawUnsafe.bind(running.prisma);
    running.prisma.$queryRawUnsafe = (async () => {
      throw new Error('connect ECONNREFUSED 127.0.0.1:5432');
    }) as typeof query;
    await expect.poll(() => grpcHealthStatus(address), { timeout: 2_000 }).toBe('NOT_SERVING');
    running.prisma.$queryRawUnsafe = query;
    await expect.poll(() => grpcHealthStatus(address), { timeout: 2_000 }).toBe('SERVING');
  });

  it('refuses to start an emitting service whose configuration drops NATS_URL while the environment sets it', async () => {
    const before = process.env.NATS_URL;
    process.env.NATS_URL = 'nats://127.0.0.1:4222';
    try {
      await expect(startService(recordingService([], { emits: true }), await config(), { logger: silent })).rejects.toThrow(
        /federation emits events, but its configuration drops NATS_URL: add eventConfigFields/,
      );
    } finally {
      if (before === undefined) delete process.env.NATS_URL;
      else process.env.NATS_URL = before;
    }
  });

  it('relays what an emitting service writes to its outbox, at once after eventsCommitted, and publishes what is pending on close', async () => {
    const events: string[] = [];
    const transport = watchedTransport();
    cleanups.push(() => transport.close());
    const service = recordingService(events, { emits: true });
    // The test keeps the Prisma client and eventsCommitted its build step was given.
    const running = await startBuiltService(
      service,
      async (context, options) => ({ parts: await service.build(context, options), ...context }),
      await config(),
      { logger: silent, transport },
    );
    const event = PaymentEvent.fromPartial({
      type: PaymentEventType.PAYMENT_EVENT_TYPE_PAYMENT_RECEIVED,
      id: `evt-${randomUUID()}`,
      organizationId: randomUUID(),
      amountMinor: 450n,
      currency: 'USD',
    });
    await running.prisma.$transaction((tx) => enqueuePaymentEvent(tx, event));
    running.eventsCommitted();
    await expect.poll(() => transport.published.map((message) => message.id), { timeout: 2_000 }).toEqual([event.id]);

    const pending = PaymentEvent.fromPartial({
      type: PaymentEventType.PAYMENT_EVENT_TYPE_PAYMENT_RECEIVED,
      id: `evt-${randomUUID()}`,
      organizationId: randomUUID(),
      amountMinor: 1n,
      currency: 'USD',
    });
    await running.prisma.$transaction((tx) => enqueuePaymentEvent(tx, pending));
    await running.close();
    expect(transport.published.map((message) => message.id)).toEqual([event.id, pending.id]);
  });

  it('closes the database it opened when the build fails, and when the port is taken', async () => {
    const events: string[] = [];
    await expect(startService(recordingService(events, { failBuild: true }), await config(), { logger: silent })).rejects.toThrow(
      'build failed',
    );
    expect(events).toEqual(['client made', 'database closed']);

    const taken = createServer();
    await new Promise<void>((listening) => taken.listen(0, '127.0.0.1', listening));
    cleanups.push(() => new Promise((closed) => taken.close(() => closed())));
    const port = (taken.address() as { port: number }).port;
    events.length = 0;
    await expect(startService(recordingService(events), await config({ GRPC_PORT: port }), { logger: silent })).rejects.toThrow();
    expect(events).toEqual(['client made', 'built', 'app closed', 'database closed']);
  });

  it.skipIf(!process.env.CTK_TEST_POSTGRES_URL)(
    'builds the app while its database opens, and consumes and serves only once it is open and migrated',
    async () => {
      const events: string[] = [];
      const settings = await config();
      // The migrations' lock, held here: the new database's open waits for it before migrating.
      const holder = new pg.Client({ connectionString: settings.DATABASE_URL });
      await holder.connect();
      cleanups.push(() => holder.end());
      await holder.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
      const transport = watchedTransport();
      cleanups.push(() => transport.close());
      const answered: unknown[] = [];
      const atBuild = async ({ prisma, sql }: { prisma: PrismaClient; sql: Sql }) => {
        // Statements sent as it is built wait for the open, and find the migrated tables.
        void prisma.$queryRawUnsafe('SELECT count(*)::int AS n FROM orders').then((rows) => answered.push(rows));
        void sql.rows('SELECT count(*)::int AS n FROM outbox_events', []).then((rows) => answered.push(rows));
      };
      let started = false;
      const starting = startService(recordingService(events, { atBuild }), settings, { logger: silent, transport });
      void starting.then(() => (started = true)).catch(() => undefined);
      await eventually(() => expect(events).toEqual(['client made', 'built']));
      await new Promise((later) => setTimeout(later, 300));
      expect({ started, answered, events }).toEqual({ started: false, answered: [], events: ['client made', 'built'] });

      await holder.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]);
      const running = await starting;
      cleanups.push(() => running.close());
      expect(await grpcHealthStatus(`127.0.0.1:${running.port}`, FederationServiceDefinition.fullName)).toBe('SERVING');
      await eventually(() => expect(answered).toEqual([[{ n: 0 }], [{ n: 0 }]]));
      expect(events).toEqual(['client made', 'built', 'consumer started']);
    },
  );

  it('tells why its database did not open, also to a statement its build sent, and closes what it built', async () => {
    const prismaDir = await mkdtemp(join(tmpdir(), 'ctk-bootstrap-'));
    cleanups.push(() => rm(prismaDir, { recursive: true, force: true }));
    await mkdir(join(prismaDir, 'migrations', '20260101000000_broken'), { recursive: true });
    await writeFile(join(prismaDir, 'migrations', '20260101000000_broken', 'migration.sql'), 'CREATE TABEL "oops" ("id" TEXT);\n');
    const events: string[] = [];
    const atBuild = async ({ prisma }: { prisma: PrismaClient }) => void (await prisma.$queryRawUnsafe('SELECT 1'));
    await expect(startService(recordingService(events, { prismaDir, atBuild }), await config(), { logger: silent })).rejects.toThrow(
      /^migration 20260101000000_broken failed, and nothing of it was applied/,
    );
    expect(events).toEqual(['client made']);

    // Built before the open failed: what it built is closed.
    events.length = 0;
    await expect(startService(recordingService(events, { prismaDir }), await config(), { logger: silent })).rejects.toThrow(
      /^migration 20260101000000_broken failed/,
    );
    expect(events).toEqual(['client made', 'built', 'app closed']);
  });
});
