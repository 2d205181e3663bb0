import { context as activeContext, SpanKind, trace } from '@opentelemetry/api';
import { ServerError, Status, type CallContext } from 'nice-grpc-common';
import type { HealthServiceImpl } from 'nice-grpc-server-health';
import { isDatabaseBusy, isWriteConflict } from '../db/prisma-errors.js';
import { AppError } from '../errors.js';
import type { Logger } from '../logger.js';
import { timeGrpcServerCall } from '../metrics/metrics.js';
import { carriedHeaders, contextFrom, installTraceContext } from '../tracing/context.js';
import { endSpan, startSpan } from '../tracing/tracing.js';
import { serveInProcess } from './in-process.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDefinition = any;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyImplementation = any;

export type GrpcServer = {
  port: number;
  /** Reports the server and each service SERVING or NOT_SERVING (readiness: what it needs is reachable, or not). */
  setServing(serving: boolean): void;
  shutdown(): Promise<void>;
};
/** A service's generated definitions, each with its implementation. */
export type GrpcServices = Array<[AnyDefinition, AnyImplementation]>;

/**
 * Starts a service's gRPC server: its implementations, grpc.health.v1, and the one middleware that
 * turns thrown AppErrors into statuses (unknown errors become INTERNAL, logged, never shown) and counts
 * and times each call (ctk_grpc_server_*; health checks are not counted).
 */
export async function startGrpcServer(options: {
  name: string;
  address: string;
  logger: Logger;
  services: GrpcServices;
  drainMs?: number;
}): Promise<GrpcServer> {
  installTraceContext();
  // grpc-js is loaded by the first server a thread starts: a thread that only calls (the gateway's) never loads it.
  const [{ createServer }, { HealthDefinition, HealthServiceImpl, HealthState }] = await Promise.all([
    import('nice-grpc'),
    import('nice-grpc-server-health'),
  ]);
  const health = HealthState();
  const server = createServer();
  const served: GrpcServices = options.services.map(([definition, implementation]) => [
    definition,
    mapErrors(definition, implementation, options.logger),
  ]);
  const stopping = new AbortController();
  served.push([HealthDefinition, endWatchesOnShutdown(HealthServiceImpl(health), stopping.signal)]);
  for (const [definition, implementation] of served) server.add(definition, implementation);
  const port = await server.listen(options.address);
  const inProcess = serveInProcess(port, served);
  const setServing = (serving: boolean) => {
    const status = serving ? 'healthy' : 'unhealthy';
    health.setStatus(status);
    for (const [definition] of options.services) health.setStatus(status, definition.fullName);
  };
  setServing(true);
  options.logger.info({ port }, `${options.name} gRPC server listening`);
  return {
    port,
    // Once shutting down, a readiness check does not report it serving again.
    setServing: (serving) => {
      if (!stopping.signal.aborted) setServing(serving);
    },
    async shutdown() {
      // NOT_SERVING first, so that a health Watch hears it before its stream is ended.
      setServing(false);
      stopping.abort();
      // Calls in flight may finish, this process's too (taken no longer); a stream that never ends (a health
      // Watch) is cut after the drain period, and this process's calls are waited for as long.
      const drainMs = options.drainMs ?? 10_000;
      const drained = Promise.all([server.shutdown(), inProcess.close(drainMs)]);
      const timer = setTimeout(() => server.forceShutdown(), drainMs);
      try {
        await drained;
      } finally {
        clearTimeout(timer);
      }
    },
  };
}

type HealthImpl = ReturnType<typeof HealthServiceImpl>;

/** Health Watch streams never end on their own, and a graceful shutdown waits for every call: end them. */
function endWatchesOnShutdown(impl: HealthImpl, stopping: AbortSignal): HealthImpl {
  return {
    check: impl.check.bind(impl),
    async *watch(request, context) {
      const signal = AbortSignal.any([context.signal, stopping]);
      try {
        yield* impl.watch(request, { ...context, signal });
      } catch (error) {
        if (!stopping.aborted || context.signal.aborted) throw error;
      }
    },
  };
}

/** Status details travel in a header: details beyond this size are dropped rather than stall the call. */
const MAX_DETAILS_BYTES = 8 * 1024;

/** Encodes an AppError into the status details as JSON, which the gateway's client decodes. */
export function encodeError(error: AppError): ServerError {
  const full = JSON.stringify({ code: error.code, message: error.message, details: error.details });
  const encoded =
    Buffer.byteLength(full) <= MAX_DETAILS_BYTES
      ? full
      : JSON.stringify({ code: error.code, message: error.message.slice(0, 1000), details: { truncated: true } });
  return new ServerError(error.grpcStatus, encoded);
}

/**
 * Wraps each handler so a thrown AppError becomes its status and anything else a logged INTERNAL: a
 * unary handler's rejection, or a server-streaming handler's throw before or between its messages (the
 * caller gets the messages sent before it, then the status). Each call is counted with its status and
 * timed (a stream until it ends, or CANCELLED when the caller leaves it). Each call runs in a span of its
 * own (SERVER), a child of the caller's trace, and every line it logs names the caller's request id. A
 * plain wrapper rather than a nice-grpc middleware: middlewares are async generators, measurably
 * dearer on every unary call. Handlers that take a stream of requests are left as they are: no contract
 * has one.
 */
function mapErrors(
  definition: { fullName: string; methods: Record<string, { name: string; requestStream: boolean; responseStream: boolean }> },
  implementation: Record<string, (request: unknown, context: CallContext) => unknown>,
  logger: Logger,
): AnyImplementation {
  const wrapped: typeof implementation = { ...implementation };
  for (const [name, handler] of Object.entries(implementation)) {
    const method = definition.methods[name];
    if (!method || method.requestStream) continue;
    const label = `${definition.fullName}/${method.name}`;
    const path = `/${label}`;
    wrapped[name] = method.responseStream
      ? async function* (request: unknown, context: CallContext) {
          const call = startCall(definition.fullName, method.name, context);
          let code = 'CANCELLED';
          let status: Status | undefined;
          let failure: unknown;
          // Each step of the stream runs in the call's context, so what the handler logs names its request.
          const messages = call.run(() =>
            (handler.call(implementation, request, context) as AsyncIterable<unknown>)[Symbol.asyncIterator](),
          );
          let done = false;
          try {
            for (;;) {
              const next = await call.run(() => messages.next());
              if (next.done) break;
              yield next.value;
            }
            done = true;
            code = 'OK';
            status = Status.OK;
          } catch (error) {
            done = true;
            const sent = call.run(() => toServerError(error, context, path, logger));
            code = statusName(sent, context);
            status = sent instanceof ServerError ? sent.code : Status.UNKNOWN;
            failure = error;
            throw sent;
          } finally {
            // The caller left: the handler's own finally blocks run too.
            if (!done) await call.run(async () => messages.return?.());
            call.end(code, status, failure);
          }
        }
      : (request: unknown, context: CallContext) => {
          const call = startCall(definition.fullName, method.name, context);
          return call.run(async () => {
            try {
              const answer = await handler.call(implementation, request, context);
              call.end('OK', Status.OK);
              return answer;
            } catch (error) {
              const sent = toServerError(error, context, path, logger);
              call.end(statusName(sent, context), sent instanceof ServerError ? sent.code : Status.UNKNOWN, error);
              throw sent;
            }
          });
        };
  }
  return wrapped;
}

/**
 * One call as it is measured: counted and timed, and a span (SERVER) that is a child of the caller's trace,
 * in a context that also holds the caller's request id. `run` runs code in that context; `end` ends both.
 */
function startCall(service: string, method: string, context: CallContext) {
  const label = `${service}/${method}`;
  const ended = timeGrpcServerCall(label);
  const parent = contextFrom(carriedHeaders((key) => context.metadata.get(key)));
  const span = startSpan(label, SpanKind.SERVER, { 'rpc.system': 'grpc', 'rpc.service': service, 'rpc.method': method }, parent);
  const active = trace.setSpan(parent, span);
  return {
    run: <T>(work: () => T): T => activeContext.with(active, work),
    end(code: string, status: Status | undefined, error?: unknown) {
      ended(code);
      if (status !== undefined) span.setAttribute('rpc.grpc.status_code', status);
      // As OpenTelemetry's conventions say: a server span is an error only when the fault is the server's.
      endSpan(span, status !== undefined && SERVER_FAULTS.has(status) ? error : undefined);
    },
  };
}

/** Statuses that say the server failed, not the caller (OpenTelemetry's gRPC conventions). */
const SERVER_FAULTS = new Set([
  Status.UNKNOWN,
  Status.DEADLINE_EXCEEDED,
  Status.UNIMPLEMENTED,
  Status.INTERNAL,
  Status.UNAVAILABLE,
  Status.DATA_LOSS,
]);

/** The status a call ends with, by name: a ServerError's code; anything else ends it CANCELLED (its caller left) or UNKNOWN. */
function statusName(sent: unknown, context: CallContext): string {
  if (sent instanceof ServerError) return Status[sent.code] ?? 'UNKNOWN';
  return context.signal.aborted ? 'CANCELLED' : 'UNKNOWN';
}

function toServerError(error: unknown, context: CallContext, method: string, logger: Logger): unknown {
  if (AppError.is(error)) return encodeError(error);
  if (error instanceof ServerError) return error;
  if (context.signal.aborted) return error; // the caller gave up (deadline or cancel): nothing to log
  // A race lost to another transaction is the caller's to try again, never a 500 (a service retries first where it can: retryLostRace).
  if (isWriteConflict(error)) {
    logger.warn({ err: error, method }, 'write conflict or deadlock: the call was refused as a conflict');
    return encodeError(new AppError('conflict', 'A concurrent change to the same data won; try again.'));
  }
  if (isDatabaseBusy(error)) {
    logger.warn({ err: error, method }, 'database busy: the call was refused as unavailable');
    return encodeError(new AppError('unavailable', 'The service is busy; try again shortly.'));
  }
  logger.error({ err: error, method }, 'unhandled error in gRPC handler');
  return new ServerError(Status.INTERNAL, JSON.stringify({ code: 'internal', message: 'Internal error' }));
}
