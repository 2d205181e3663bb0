import { context, SpanKind, trace } from '@opentelemetry/api';
import { BooksServiceDefinition, type BooksServiceImplementation } from '@ctk/proto/ctk/books/v1/books';
import { PaymentEvent } from '@ctk/proto/ctk/events/v1/payment_event';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inProcessTransport } from '../src/events/in-process-transport.js';
import { measuredConsumers } from '../src/events/measured-consumers.js';
import { enqueuePaymentEvent } from '../src/events/outbox.js';
import { startOutboxRelay, type OutboxRelay } from '../src/events/outbox-relay.js';
import { createGrpcClient } from '../src/grpc/client.js';
import { startGrpcServer, type GrpcServer } from '../src/grpc/server.js';
import { loggerOptions } from '../src/logger.js';
import { eventually } from '../src/testing/eventually.js';
import { startOtlpReceiver, type ReceivedSpan } from '../src/testing/otlp-receiver.js';
import { requestContext } from '../src/tracing/context.js';
import { endSpan, flushTraces, inBatchSpan, startSpan, startTracing, stopTracing } from '../src/tracing/tracing.js';
import { openOutboxDatabase, type OutboxDatabase } from './fixtures/outbox/database.js';
import { paymentEvent } from './fixtures/payment-events.js';
import { silentLogger } from './fixtures/silent-logger.js';

/**
 * One request through the pieces every app is built of, traced as a collector receives it: a root span (the
 * gateway's HTTP request), a gRPC call, the handler writing an event to the outbox, the relay publishing it
 * and a consumer handling it. One trace, each span the child of the one before, and every line logged on
 * the way naming the request.
 */
describe('a request traced from the gateway to the consumer', () => {
  let receiver: Awaited<ReturnType<typeof startOtlpReceiver>>;
  let db: OutboxDatabase;
  let server: GrpcServer;
  let relay: OutboxRelay;
  const transport = inProcessTransport();
  const lines: Array<Record<string, unknown>> = [];
  const logger = pino(loggerOptions('test'), { write: (line: string) => lines.push(JSON.parse(line) as Record<string, unknown>) });
  const consumed: string[] = [];

  beforeAll(async () => {
    receiver = await startOtlpReceiver();
    await startTracing('ctk-test', { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_BSP_SCHEDULE_DELAY: '50' });
    db = await openOutboxDatabase();
    const unused = Object.fromEntries(Object.keys(BooksServiceDefinition.methods).map((name) => [name, () => undefined]));
    const books = {
      ...(unused as unknown as BooksServiceImplementation),
      async getSetup(request: { org?: { handle: string } }) {
        await db.prisma.$transaction((tx) => enqueuePaymentEvent(tx, paymentEvent({ id: `traced-${request.org?.handle}` })));
        logger.info({}, 'handler wrote the event');
        return { capabilities: [] };
      },
    };
    server = await startGrpcServer({ name: 'books', address: '127.0.0.1:0', logger, services: [[BooksServiceDefinition, books]] });
    await measuredConsumers(transport).consume('books', async (message) => {
      consumed.push(PaymentEvent.decode(message.data).id);
      logger.info({}, 'consumer handled the event');
    });
    relay = startOutboxRelay({ sql: db.sql, transport, logger: silentLogger(), pollMs: 20 });
  });

  afterAll(async () => {
    await relay?.stop();
    await transport.close();
    await server?.shutdown();
    await db?.close();
    await stopTracing();
    await receiver?.close();
  });

  it('is one trace, each span the child of the one before, and each line logged names the request', async () => {
    const client = createGrpcClient(BooksServiceDefinition, `127.0.0.1:${server.port}`);
    const root = startSpan('POST /api/v1/things', SpanKind.SERVER, {}, requestContext('req-traced'));
    await context.with(trace.setSpan(requestContext('req-traced'), root), () => client.getSetup({ org: { handle: 'one' } }));
    endSpan(root);
    client.close();
    await eventually(() => expect(consumed).toEqual(['traced-one']));
    let spans: ReceivedSpan[] = [];
    let database: ReceivedSpan[] = [];
    await eventually(async () => {
      await flushTraces();
      const traced = receiver.spans().filter((span) => span.traceId === root.spanContext().traceId);
      spans = traced.filter((span) => !span.name.startsWith('prisma:'));
      database = traced.filter((span) => span.name.startsWith('prisma:'));
      expect(spans).toHaveLength(5);
    });

    // Each span the only child of the one before it, the database's spans between them left out.
    const all = [...spans, ...database];
    const above = (span: ReceivedSpan): ReceivedSpan | undefined => {
      const parent = all.find((candidate) => candidate.spanId === span.parentSpanId);
      return parent && parent.name.startsWith('prisma:') ? above(parent) : parent;
    };
    const childOf = (parent: ReceivedSpan) => {
      const children = spans.filter((span) => above(span) === parent);
      expect(children).toHaveLength(1);
      return children[0]!;
    };
    const gateway = spans.find((span) => span.parentSpanId === '')!;
    const call = childOf(gateway);
    const handler = childOf(call);
    const publish = childOf(handler);
    const consume = childOf(publish);
    expect(gateway).toMatchObject({ name: 'POST /api/v1/things', spanId: root.spanContext().spanId, service: 'ctk-test' });
    // Each span's times in ms since the epoch, begun in this test and ended no earlier; the call begun after the
    // request that made it (its end may come a tick after the request's: the client ends it as the stream closes).
    for (const span of spans) expect(span.end).toBeGreaterThanOrEqual(span.start);
    expect(gateway.start).toBeGreaterThan(Date.now() - 60_000);
    expect(call.start).toBeGreaterThanOrEqual(gateway.start);
    expect(call).toMatchObject({ name: 'ctk.books.v1.BooksService/GetSetup', kind: 3 });
    expect(call.attributes).toMatchObject({ 'rpc.system': 'grpc', 'rpc.method': 'GetSetup', 'rpc.grpc.status_code': 0 });
    expect(handler).toMatchObject({ name: 'ctk.books.v1.BooksService/GetSetup', kind: 2 });
    expect(publish).toMatchObject({ name: 'publish ctk.payments.payment.received', kind: 4 });
    expect(publish.attributes).toMatchObject({ 'messaging.system': 'nats', 'messaging.message.id': 'traced-one' });
    expect(consume).toMatchObject({ name: 'process ctk.payments.payment.received', kind: 5 });
    expect(consume.attributes).toMatchObject({ 'messaging.consumer.group.name': 'books', 'ctk.outcome': 'handled' });
    // The handler's transaction and the statement that wrote the event, as Prisma traces them.
    const transaction = database.find((span) => span.name === 'prisma:client:transaction');
    expect(transaction?.parentSpanId).toBe(handler.spanId);
    const insert = database.find((span) => String(span.attributes['db.query.text']).startsWith('INSERT INTO outbox_events'));
    expect(insert).toMatchObject({ name: 'prisma:client:db_query', attributes: { 'db.system.name': 'postgresql' } });
    const within = (span: ReceivedSpan, ancestor: ReceivedSpan): boolean =>
      span.parentSpanId === ancestor.spanId || all.some((parent) => parent.spanId === span.parentSpanId && within(parent, ancestor));
    expect(within(insert!, transaction!)).toBe(true);
    // Statements outside any request (the relay polls every 20 ms here) begin no trace.
    expect(receiver.spans().filter((span) => span.name.startsWith('prisma:') && span.parentSpanId === '')).toEqual([]);

    const traceId = root.spanContext().traceId;
    expect(lines.find((line) => line.msg === 'handler wrote the event')).toMatchObject({
      reqId: 'req-traced',
      trace_id: traceId,
      span_id: handler.spanId,
    });
    expect(lines.find((line) => line.msg === 'consumer handled the event')).toMatchObject({
      reqId: 'req-traced',
      trace_id: traceId,
      span_id: consume.spanId,
    });
  });

  it('keeps no trace with an event written outside any request, and its consumer still handles it', async () => {
    await db.prisma.$transaction((tx) => enqueuePaymentEvent(tx, paymentEvent({ id: 'untraced' })));
    const row = await db.prisma.outboxEvent.findUniqueOrThrow({ where: { id: 'untraced' } });
    expect(row.traceContext).toBeNull();
    await eventually(() => expect(consumed).toContain('untraced'));
  });

  it('traces a batch written for two requests in each one: its statements under the first, a linked span in the other', async () => {
    const first = startSpan('POST /api/v1/first', SpanKind.SERVER, {}, requestContext('req-first'));
    const second = startSpan('POST /api/v1/second', SpanKind.SERVER, {}, requestContext('req-second'));
    const parents = [trace.setSpan(requestContext('req-first'), first), trace.setSpan(requestContext('req-second'), second)];
    await inBatchSpan('books.journal.write', parents, () => db.prisma.outboxEvent.count());
    endSpan(first);
    endSpan(second);
    let batch: ReceivedSpan | undefined;
    let linked: ReceivedSpan | undefined;
    await eventually(async () => {
      await flushTraces();
      batch = receiver.spans().find((span) => span.name === 'books.journal.write' && span.traceId === first.spanContext().traceId);
      linked = receiver.spans().find((span) => span.name === 'books.journal.write' && span.traceId === second.spanContext().traceId);
      expect(batch && linked).toBeTruthy();
    });
    expect(batch).toMatchObject({ parentSpanId: first.spanContext().spanId, attributes: { 'batch.size': 2 } });
    expect(batch!.links).toEqual([{ traceId: second.spanContext().traceId, spanId: second.spanContext().spanId }]);
    expect(linked).toMatchObject({ parentSpanId: second.spanContext().spanId, attributes: { 'batch.size': 2 } });
    expect(linked!.links).toEqual([{ traceId: batch!.traceId, spanId: batch!.spanId }]);
    // The statement, once, under the batch's span.
    const counts = receiver.spans().filter((span) => /^SELECT COUNT\(\*\)/i.test(String(span.attributes['db.query.text'])));
    expect(counts.map((span) => span.traceId)).toEqual([first.spanContext().traceId]);
  });
});

describe('a collector that is gone', () => {
  afterAll(() => stopTracing());

  it('neither fails nor holds up a stop: the spans it did not take are dropped within the flush limit', async () => {
    const gone = await startOtlpReceiver();
    await gone.close();
    await startTracing('ctk-test', { OTEL_EXPORTER_OTLP_ENDPOINT: gone.url, OTEL_BSP_SCHEDULE_DELAY: '60000' });
    endSpan(startSpan('POST /api/v1/lost', SpanKind.SERVER, {}, requestContext('req-lost')));
    const started = Date.now();
    await expect(flushTraces()).resolves.toBeUndefined();
    expect(Date.now() - started).toBeLessThan(3_000);
  });
});
