import { context, createContextKey, propagation, ROOT_CONTEXT, trace, type Context } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { REQUEST_ID_KEY } from '../grpc/metadata.js';

/*
 * What travels with a request (docs/decisions/0043-tracing.md): its W3C trace context (`traceparent`,
 * `tracestate`) and its request id, from the gateway's HTTP request through gRPC metadata, the outbox row,
 * the NATS message's headers and the consumer. Within a process it is OpenTelemetry's active context, kept
 * across awaits by AsyncLocalStorage; between processes it is these headers. Every log line written in that
 * context carries the request id and the trace (logger.ts).
 */

/** The carrier: header names, lower case, to values. */
export type TraceHeaders = Record<string, string>;

const REQUEST_ID = createContextKey('ctk request id');
/** What a carrier holds: W3C trace context's two headers and the request id. */
const CARRIED = ['traceparent', 'tracestate', REQUEST_ID_KEY];
let installed = false;

/** Keeps the active context across awaits and reads and writes W3C trace context: once per process. */
export function installTraceContext(): void {
  if (installed) return;
  installed = true;
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
}

/** The request id of the active context, if a request is being handled. */
export function currentRequestId(): string | undefined {
  return context.active().getValue(REQUEST_ID) as string | undefined;
}

/** `parent` with this request id. */
function withRequestId(parent: Context, requestId: string | undefined): Context {
  return requestId ? parent.setValue(REQUEST_ID, requestId) : parent;
}

/** A new request's context, where its trace begins: only its request id. */
export function requestContext(requestId: string): Context {
  return withRequestId(ROOT_CONTEXT, requestId);
}

/** The context a carrier describes (what another process sent): its trace as the remote parent, and its request id. */
export function contextFrom(headers: TraceHeaders | undefined, base: Context = ROOT_CONTEXT): Context {
  if (!headers) return base;
  return withRequestId(propagation.extract(base, headers), headers[REQUEST_ID_KEY]);
}

/** The carried headers among those `get` reads (gRPC metadata, NATS message headers). */
export function carriedHeaders(get: (name: string) => unknown): TraceHeaders {
  const headers: TraceHeaders = {};
  for (const name of CARRIED) {
    const value = get(name);
    if (typeof value === 'string' && value) headers[name] = value;
  }
  return headers;
}

/** The headers that carry a context (the active one by default) to another process: its trace and request id. */
export function headersOf(from: Context = context.active()): TraceHeaders {
  const headers: TraceHeaders = {};
  propagation.inject(from, headers);
  const requestId = from.getValue(REQUEST_ID) as string | undefined;
  if (requestId) headers[REQUEST_ID_KEY] = requestId;
  return headers;
}

/** What a log line written now says of its request: the request id, and the trace and span when traced. */
export function logFieldsOfContext(): Record<string, string> {
  const active = context.active();
  const fields: Record<string, string> = {};
  const requestId = active.getValue(REQUEST_ID) as string | undefined;
  if (requestId) fields.reqId = requestId;
  const span = trace.getSpanContext(active);
  if (span && trace.isSpanContextValid(span)) {
    fields.trace_id = span.traceId;
    fields.span_id = span.spanId;
  }
  return fields;
}
