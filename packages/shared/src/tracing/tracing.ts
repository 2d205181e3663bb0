import { context, SpanKind, SpanStatusCode, trace, type Attributes, type Context, type Span } from '@opentelemetry/api';
import type { TracerProvider } from '@opentelemetry/sdk-trace';
import type { TracingHelper } from '@prisma/instrumentation-contract';
import { z } from 'zod';
import { loadConfig, unsetIfEmpty } from '../config.js';
import { installTraceContext } from './context.js';

/**
 * Tracing's settings, by OpenTelemetry's own variable names, in every app's configuration (telemetryConfigFields):
 * traces are exported over OTLP/HTTP (JSON) to OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, else
 * OTEL_EXPORTER_OTLP_ENDPOINT + /v1/traces (a collector's receiver); with neither, nothing is recorded, and
 * the trace context and request id still travel.
 */
export const tracingConfigFields = {
  OTEL_EXPORTER_OTLP_ENDPOINT: unsetIfEmpty(z.url({ protocol: /^https?$/ }).optional()),
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: unsetIfEmpty(z.url({ protocol: /^https?$/ }).optional()),
  OTEL_SERVICE_NAME: unsetIfEmpty(z.string().min(1).optional()),
  /** The share of new traces recorded, 0 to 1 (a trace begun elsewhere follows its caller's choice). */
  OTEL_TRACES_SAMPLER_ARG: unsetIfEmpty(z.coerce.number().min(0).max(1).default(1)),
  /** How long finished spans wait to be exported in a batch, in milliseconds. */
  OTEL_BSP_SCHEDULE_DELAY: unsetIfEmpty(z.coerce.number().int().min(0).default(5_000)),
};
const tracingConfigSchema = z.object(tracingConfigFields);

let provider: TracerProvider | undefined;

/**
 * Starts this process's tracing, once (the embedded default starts every app in one process: the first
 * name wins, OTEL_SERVICE_NAME over it). Always installs the trace context; records and exports spans
 * only when an OTLP endpoint is set, Prisma's among them (traceDatabaseCalls). The SDK, its exporter and
 * Prisma's instrumentation are loaded only then: they take about 0.3 s of a start to load.
 */
export async function startTracing(serviceName: string, env: NodeJS.ProcessEnv = process.env): Promise<void> {
  installTraceContext();
  if (provider) return;
  const config = loadConfig(tracingConfigSchema, env);
  const url =
    config.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ??
    (config.OTEL_EXPORTER_OTLP_ENDPOINT ? `${config.OTEL_EXPORTER_OTLP_ENDPOINT.replace(/\/$/, '')}/v1/traces` : undefined);
  if (!url) return;
  const [
    { OTLPTraceExporter },
    { resourceFromAttributes },
    { BatchSpanProcessor, ParentBasedSampler, TraceIdRatioBasedSampler, TracerProvider },
  ] = await Promise.all([
    import('@opentelemetry/exporter-trace-otlp-http'),
    import('@opentelemetry/resources'),
    import('@opentelemetry/sdk-trace'),
  ]);
  // Another app of this process may have started it meanwhile.
  if (provider) return;
  provider = new TracerProvider({
    resource: resourceFromAttributes({ 'service.name': config.OTEL_SERVICE_NAME ?? serviceName }),
    sampler: new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(config.OTEL_TRACES_SAMPLER_ARG) }),
    spanProcessors: [
      new BatchSpanProcessor({ exporter: new OTLPTraceExporter({ url }), scheduledDelayMillis: config.OTEL_BSP_SCHEDULE_DELAY }),
    ],
  });
  trace.setGlobalTracerProvider(provider);
  await traceDatabaseCalls(provider);
}

/**
 * Prisma's spans (each operation, its transaction and its statements, `prisma:client:*`), within a recorded span
 * only: a statement outside any request (a relay's or a watcher's polling) would begin a trace of its own each
 * time, and leave the work it wraps in that trace's context (an outbox row written then would carry it).
 * @prisma/instrumentation makes Prisma Client's tracing helper (a global the client reads); this one wraps it.
 */
async function traceDatabaseCalls(tracerProvider: TracerProvider): Promise<void> {
  const [{ PrismaInstrumentation }, { getGlobalTracingHelper, setGlobalTracingHelper }] = await Promise.all([
    import('@prisma/instrumentation'),
    import('@prisma/instrumentation-contract'),
  ]);
  // Not enabled by its constructor, which would also hook every module loaded from then on: enable() alone
  // sets the helper.
  const instrumentation = new PrismaInstrumentation({ enabled: false });
  instrumentation.setTracerProvider(tracerProvider);
  instrumentation.enable();
  const helper = getGlobalTracingHelper();
  if (!helper) return;
  const withinRecordedSpan: TracingHelper = {
    isEnabled: () => helper.isEnabled(),
    getTraceParent: (from) => helper.getTraceParent(from),
    dispatchEngineSpans: (spans, events, emit) => helper.dispatchEngineSpans(spans, events, emit),
    getActiveContext: () => helper.getActiveContext(),
    runInChildSpan: (options, callback) => {
      const parent = (typeof options === 'object' && options.context) || context.active();
      return trace.getSpan(parent)?.isRecording() ? helper.runInChildSpan(options, callback) : callback();
    },
  };
  setGlobalTracingHelper(withinRecordedSpan);
}

/** How long a flush or a stop waits for the collector: a stop must not hang on one that is slow or gone. */
const FLUSH_LIMIT_MS = 2_000;

/**
 * Exports the spans that have ended and not yet been sent (before the process stops). It never fails and waits
 * at most FLUSH_LIMIT_MS: spans a collector does not take are lost, and the stop goes on (the exporter, retrying
 * an unreachable collector, would take about 10 s and then fail the stop).
 */
export async function flushTraces(): Promise<void> {
  if (provider) await withinLimit(provider.forceFlush());
}

/** Stops recording and exporting spans, after a last flush: a test that started tracing leaves none behind it. */
export async function stopTracing(): Promise<void> {
  if (!provider) return;
  const stopping = provider;
  provider = undefined;
  trace.disable();
  await withinLimit(stopping.shutdown());
}

async function withinLimit(work: Promise<void>): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<void>((resolve) => (timer = setTimeout(resolve, FLUSH_LIMIT_MS)));
  await Promise.race([work.catch(() => undefined), limit]);
  clearTimeout(timer);
}

/** The tracer of the provider started now (none after stopTracing, a new one after tracing starts again). */
const tracer = () => trace.getTracer('commerce-toolkit');

/** Starts a span, a child of `parent` (the active context by default); without tracing it records nothing. */
export function startSpan(name: string, kind: SpanKind, attributes: Attributes, parent: Context = context.active()): Span {
  return tracer().startSpan(name, { kind, attributes }, parent);
}

/** Ends a span with an error status and the error recorded, or OK. */
export function endSpan(span: Span, error?: unknown, message?: string): void {
  if (error !== undefined) {
    span.recordException(error instanceof Error ? error : String(error));
    span.setStatus({ code: SpanStatusCode.ERROR, message: message ?? (error instanceof Error ? error.message : String(error)) });
  }
  span.end();
}

/** Runs `work` in a new span as the active context (with `parent`'s request id), and ends the span with its outcome. */
export async function inSpan<T>(
  name: string,
  kind: SpanKind,
  attributes: Attributes,
  parent: Context,
  work: (span: Span) => Promise<T>,
): Promise<T> {
  const span = startSpan(name, kind, attributes, parent);
  try {
    const result = await context.with(trace.setSpan(parent, span), () => work(span));
    endSpan(span);
    return result;
  } catch (error) {
    endSpan(span, error);
    throw error;
  }
}

/** The trace context active now: what a piece of work handed to another caller's batch carries with it. */
export type TraceContext = Context;
export const activeTraceContext = (): TraceContext => context.active();

/**
 * Runs `work` once for items that came from several traces (a group commit's batch). It runs in one span, the
 * child of the first item's context and linked to the others', so that its statements are traced once; each
 * other item's trace gets a span of the same name over the same time, linked to that one, so every trace shows
 * its item's write and where its statements are. Without a recorded trace among them, just `work`.
 */
export async function inBatchSpan<T>(name: string, parents: TraceContext[], work: () => Promise<T>): Promise<T> {
  const [first = context.active(), ...others] = parents;
  const traced = others.filter((other) => trace.getSpan(other)?.isRecording());
  if (!trace.getSpan(first)?.isRecording() && traced.length === 0) return context.with(first, work);
  const attributes = { 'batch.size': parents.length };
  const startTime = new Date();
  const links = traced.map((other) => ({ context: trace.getSpan(other)!.spanContext() }));
  const batch = tracer().startSpan(name, { kind: SpanKind.INTERNAL, attributes, links, startTime }, first);
  let failure: unknown;
  try {
    // Awaited inside: a lazy promise (Prisma's) starts its query when awaited, in the batch's context.
    return await context.with(trace.setSpan(first, batch), async () => await work());
  } catch (error) {
    failure = error;
    throw error;
  } finally {
    const endTime = new Date();
    const status =
      failure === undefined
        ? undefined
        : { code: SpanStatusCode.ERROR, message: failure instanceof Error ? failure.message : String(failure) };
    for (const other of traced) {
      const own = tracer().startSpan(
        name,
        { kind: SpanKind.INTERNAL, attributes, links: [{ context: batch.spanContext() }], startTime },
        other,
      );
      if (status) own.setStatus(status);
      own.end(endTime);
    }
    if (status) batch.setStatus(status);
    batch.end(endTime);
  }
}
