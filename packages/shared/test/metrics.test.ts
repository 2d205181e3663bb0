import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { FederationServiceDefinition, type FederationServiceImplementation } from '@ctk/proto/ctk/federation/v1/federation';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { connectNatsTransport } from '../src/events/nats-transport.js';
import { enqueuePaymentEvent } from '../src/events/outbox.js';
import { inProcessTransport } from '../src/events/in-process-transport.js';
import type { EventHandler, EventTransport } from '../src/events/transport.js';
import { createGrpcClient } from '../src/grpc/client.js';
import { createLogger } from '../src/logger.js';
import { defineService, type ServiceParts } from '../src/service/define-service.js';
import { startService } from '../src/service/start-service.js';
import { scrapeMetrics } from '../src/testing/metrics.js';
import { closeAdmin, deleteStream, NATS_URL, testStream, uniqueName } from '../src/testing/nats.js';
import { startBuiltService } from '../src/testing/start-built-service.js';
import { createTestDatabase, TEST_DATA_DIR } from '../src/testing/test-database.js';
import { PrismaClient } from './fixtures/outbox/generated/client.js';
import { paymentEvent } from './fixtures/payment-events.js';
import { spyTransport } from './fixtures/spy-transport.js';

const PRISMA_DIR = fileURLToPath(new URL('./fixtures/outbox', import.meta.url));
const silent = createLogger('test', 'silent');
const GET_SETUP = 'ctk.federation.v1.FederationService/GetSetup';
const GET_HOURS = 'ctk.federation.v1.FederationService/GetHours';
// GetSetup answers; every other method fails as a bug would (an INTERNAL status).
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

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});
afterAll(closeAdmin);

async function config() {
  const databaseUrl = await createTestDatabase('metrics');
  return { LOG_LEVEL: 'silent', GRPC_PORT: 0, METRICS_PORT: 0, CTK_DATA_DIR: TEST_DATA_DIR, DATABASE_URL: databaseUrl };
}

/** A service on the outbox fixture's database: it emits, or consumes with `consume`. */
function fixtureService(options: { emits?: boolean; consume?: ServiceParts['consume'] } = {}) {
  return defineService<{ LOG_LEVEL: string }, PrismaClient>({
    name: 'federation',
    configSchema: undefined as never,
    database: { prismaDir: PRISMA_DIR, createClient: (adapter) => new PrismaClient({ adapter }) },
    emits: options.emits,
    build: () => ({ grpc: federation, consume: options.consume }),
  });
}

describe('metrics', () => {
  it('a service started with METRICS_PORT=0 answers GET /metrics on a port of its own: Node metrics, and its gRPC calls by method and code', async () => {
    const running = await startService(fixtureService(), await config(), { logger: silent });
    cleanups.push(() => running.close());
    expect(running.metricsPort).toBeGreaterThan(0);
    expect(running.metricsPort).not.toBe(running.port);
    const before = await scrapeMetrics(running.metricsPort!);

    const client = createGrpcClient(FederationServiceDefinition, `127.0.0.1:${running.port}`);
    cleanups.push(async () => client.close());
    await client.getSetup({ org: { id: randomUUID(), handle: 'corner-cafe' } });
    await client.getSetup({ org: { id: randomUUID(), handle: 'corner-cafe' } });
    await expect(client.getHours({})).rejects.toMatchObject({ code: 'internal' });

    const scrape = await scrapeMetrics(running.metricsPort!);
    const delta = (name: string, labels: Record<string, string>) => (scrape.value(name, labels) ?? 0) - (before.value(name, labels) ?? 0);
    // prom-client's default Node metrics, under their usual names.
    expect(scrape.types.get('process_cpu_user_seconds_total')).toBe('counter');
    expect(scrape.value('nodejs_heap_size_used_bytes')).toBeGreaterThan(0);
    expect(scrape.value('nodejs_eventloop_lag_seconds')).toBeGreaterThanOrEqual(0);
    // The server's side of the calls.
    expect(scrape.types.get('ctk_grpc_server_calls_total')).toBe('counter');
    expect(delta('ctk_grpc_server_calls_total', { method: GET_SETUP, code: 'OK' })).toBe(2);
    expect(delta('ctk_grpc_server_calls_total', { method: GET_HOURS, code: 'INTERNAL' })).toBe(1);
    expect(scrape.types.get('ctk_grpc_server_call_duration_seconds')).toBe('histogram');
    expect(delta('ctk_grpc_server_call_duration_seconds_count', { method: GET_SETUP })).toBe(2);
    expect(delta('ctk_grpc_server_call_duration_seconds_bucket', { method: GET_SETUP, le: '+Inf' })).toBe(2);
    // The caller's side (the test's client is in this process, on the same registry).
    const service = 'ctk.federation.v1.FederationService';
    expect(delta('ctk_grpc_client_calls_total', { service, method: 'GetSetup', code: 'OK' })).toBe(2);
    expect(delta('ctk_grpc_client_calls_total', { service, method: 'GetHours', code: 'INTERNAL' })).toBe(1);
    expect(delta('ctk_grpc_client_call_duration_seconds_count', { service, method: 'GetSetup' })).toBe(2);
    // Every sample carries the app.
    expect(scrape.samples.every((sample) => sample.labels.app === 'federation')).toBe(true);

    const elsewhere = await fetch(`http://127.0.0.1:${running.metricsPort}/`);
    expect(elsewhere.status).toBe(404);
    await elsewhere.text();
  });

  it('shows the outbox backlog and its oldest age while the transport refuses, publish failures counted, and 0 once it takes them', async () => {
    const spy = spyTransport(inProcessTransport());
    cleanups.push(() => spy.transport.close());
    spy.failWith(new Error('the broker is down'));
    const service = fixtureService({ emits: true });
    const running = await startBuiltService(
      service,
      async (context, options) => ({ parts: await service.build(context, options), ...context }),
      await config(),
      { logger: silent, transport: spy.transport },
    );
    cleanups.push(() => running.close());
    const port = running.metricsPort!;
    const before = await scrapeMetrics(port);
    const counted = async (name: string) => ((await scrapeMetrics(port)).value(name) ?? 0) - (before.value(name) ?? 0);
    expect(before.value('ctk_outbox_backlog')).toBe(0);
    expect(before.value('ctk_outbox_oldest_age_seconds')).toBe(0);

    for (const id of ['evt-metrics-1', 'evt-metrics-2'])
      await running.prisma.$transaction((tx) => enqueuePaymentEvent(tx, paymentEvent({ id: `${id}-${randomUUID()}` })));
    running.eventsCommitted();
    await expect.poll(() => counted('ctk_outbox_publish_failures_total'), { timeout: 5_000 }).toBeGreaterThanOrEqual(2);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const refusing = await scrapeMetrics(port);
    expect(refusing.types.get('ctk_outbox_backlog')).toBe('gauge');
    expect(refusing.value('ctk_outbox_backlog')).toBe(2);
    expect(refusing.value('ctk_outbox_oldest_age_seconds')).toBeGreaterThan(0);
    expect(refusing.value('ctk_outbox_oldest_age_seconds')).toBeLessThan(60);

    spy.failWith(undefined);
    running.eventsCommitted();
    await expect.poll(async () => (await scrapeMetrics(port)).value('ctk_outbox_backlog'), { timeout: 5_000 }).toBe(0);
    expect((await scrapeMetrics(port)).value('ctk_outbox_oldest_age_seconds')).toBe(0);
    expect(await counted('ctk_outbox_published_total')).toBe(2);
  });

  it('shows whether the broker is connected: 1, 0 while it is not, 1 again', async () => {
    const broker = { up: true };
    const transport = Object.assign(inProcessTransport(), { connected: () => broker.up });
    cleanups.push(() => transport.close());
    const service = fixtureService({ emits: true });
    const running = await startBuiltService(
      service,
      async (context, options) => ({ parts: await service.build(context, options), ...context }),
      await config(),
      { logger: silent, transport },
    );
    cleanups.push(() => running.close());
    const connected = async () => (await scrapeMetrics(running.metricsPort!)).value('ctk_broker_connected');
    expect(await connected()).toBe(1);
    broker.up = false;
    expect(await connected()).toBe(0);
    broker.up = true;
    expect(await connected()).toBe(1);
  });

  it("counts a consumer's events by outcome, and shows its lag on NATS (pending and unacknowledged) until it catches up", async () => {
    const stream = testStream();
    const transport: EventTransport = await connectNatsTransport({ url: NATS_URL, logger: silent, stream, reconnectTimeWaitMs: 100 });
    cleanups.push(
      () => deleteStream(stream.name),
      () => transport.close(),
    );
    const consumer = uniqueName('metrics');
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const handler: EventHandler = async (message) => {
      await gate;
      return message.id.endsWith('-dup') ? 'duplicate' : 'posted';
    };
    const running = await startService(fixtureService({ consume: (events) => events.consume(consumer, handler) }), await config(), {
      logger: silent,
      transport,
    });
    cleanups.push(() => running.close());
    const port = running.metricsPort!;
    for (const id of ['a', 'b', 'c-dup'])
      await transport.publish({ id: `${consumer}-${id}`, subject: stream.subject, data: new Uint8Array([1]) });

    const lag = async () => (await scrapeMetrics(port)).value('ctk_consumer_lag', { consumer });
    await expect.poll(lag, { timeout: 5_000 }).toBe(3);
    open();
    await expect.poll(lag, { timeout: 5_000 }).toBe(0);
    const scrape = await scrapeMetrics(port);
    expect(scrape.value('ctk_events_consumed_total', { consumer, outcome: 'posted' })).toBe(2);
    expect(scrape.value('ctk_events_consumed_total', { consumer, outcome: 'duplicate' })).toBe(1);

    await running.close();
    cleanups.pop();
  });
});
