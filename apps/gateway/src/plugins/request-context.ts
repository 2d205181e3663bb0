import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { REQUEST_ID_KEY, startSpan, endSpan, requestContext } from '@ctk/shared';
import { context, SpanKind, trace, type Span } from '@opentelemetry/api';
import type { FastifyServerFactory, FastifyServerOptions } from 'fastify';

/** A request id a client may choose (X-Request-Id), else one is made. */
const REQUEST_ID = /^[\w.-]{1,64}$/;
/** Probes, answered many times a minute: never traced. */
const UNTRACED = new Set(['/healthz', '/readyz']);
const spans = new WeakMap<IncomingMessage, Span>();

/** The request's id: the client's X-Request-Id when it is a plain token, else a new one. */
export function requestIdOf(request: Pick<IncomingMessage, 'headers'>): string {
  const incoming = request.headers[REQUEST_ID_KEY];
  return typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
}

/**
 * Fastify's HTTP server, as Fastify makes it (its http options, timeouts and keep-alive), with each request
 * handled in a context of its own (docs/decisions/0043-tracing.md): its request id, which every line logged
 * for it and every call and event it causes carries, and a span (SERVER) that roots its trace. A client's
 * own traceparent is not followed: the gateway is the edge, and a caller must not choose what is recorded.
 */
export const tracedServerFactory: FastifyServerFactory = (handler, options) => {
  const settings = options as FastifyServerOptions & { http?: object; keepAliveTimeout: number; requestTimeout: number };
  const server: Server = createServer(settings.http ?? {}, (request: IncomingMessage, reply: ServerResponse) => {
    const requestId = requestIdOf(request);
    request.headers[REQUEST_ID_KEY] = requestId; // what genReqId reads
    const base = requestContext(requestId);
    const path = (request.url ?? '/').split('?')[0] ?? '/';
    if (UNTRACED.has(path)) return context.with(base, () => handler(request, reply));
    const span = startSpan(
      request.method ?? 'HTTP',
      SpanKind.SERVER,
      { 'http.request.method': request.method ?? '', 'url.path': path },
      base,
    );
    spans.set(request, span);
    reply.once('close', () => {
      span.setAttribute('http.response.status_code', reply.statusCode);
      endSpan(span, reply.statusCode >= 500 ? new Error(`answered ${reply.statusCode}`) : undefined);
    });
    context.with(trace.setSpan(base, span), () => handler(request, reply));
  });
  server.keepAliveTimeout = settings.keepAliveTimeout;
  server.requestTimeout = settings.requestTimeout;
  if (settings.connectionTimeout) server.setTimeout(settings.connectionTimeout);
  if (settings.maxRequestsPerSocket) server.maxRequestsPerSocket = settings.maxRequestsPerSocket;
  return server;
};

/** Names the request's span by the route it matched (`GET /api/v1/orgs/:handle/ledger`), never its URL. */
export function nameServerSpan(request: IncomingMessage, method: string, route: string | undefined): void {
  if (!route) return;
  const span = spans.get(request);
  span?.updateName(`${method} ${route}`);
  span?.setAttribute('http.route', route);
}
