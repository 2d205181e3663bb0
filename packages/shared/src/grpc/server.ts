import { createServer, ServerError, Status, type CallContext, type ServerMiddlewareCall } from 'nice-grpc';
import { HealthDefinition, HealthServiceImpl, HealthState } from 'nice-grpc-server-health';
import { AppError } from '../errors.js';
import type { Logger } from '../logger.js';
import { REQUEST_ID_KEY } from './metadata.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDefinition = any;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyImplementation = any;

export type GrpcServer = { port: number; shutdown(): Promise<void> };

/**
 * Starts a service's gRPC server: its implementations, grpc.health.v1, and the one middleware that
 * turns thrown AppErrors into statuses (unknown errors become INTERNAL, logged, never shown).
 */
export async function startGrpcServer(options: {
  name: string;
  address: string;
  logger: Logger;
  services: Array<[AnyDefinition, AnyImplementation]>;
  drainMs?: number;
}): Promise<GrpcServer> {
  const health = HealthState();
  const server = createServer().use(errorMiddleware(options.logger));
  for (const [definition, implementation] of options.services) server.add(definition, implementation);
  const stopping = new AbortController();
  server.add(HealthDefinition, endWatchesOnShutdown(HealthServiceImpl(health), stopping.signal));
  const port = await server.listen(options.address);
  health.setStatus('healthy');
  for (const [definition] of options.services) health.setStatus('healthy', definition.fullName);
  options.logger.info({ port }, `${options.name} gRPC server listening`);
  return {
    port,
    async shutdown() {
      health.setStatus('unhealthy');
      stopping.abort();
      for (const [definition] of options.services) health.setStatus('unhealthy', definition.fullName);
      // Calls in flight may finish; a stream that never ends (a health Watch) is cut after the drain period.
      const drained = server.shutdown();
      const timer = setTimeout(() => server.forceShutdown(), options.drainMs ?? 10_000);
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
  const encoded = Buffer.byteLength(full) <= MAX_DETAILS_BYTES ? full
    : JSON.stringify({ code: error.code, message: error.message.slice(0, 1000), details: { truncated: true } });
  return new ServerError(error.grpcStatus, encoded);
}

function errorMiddleware(logger: Logger) {
  return async function* <Req, Res>(call: ServerMiddlewareCall<Req, Res>, context: CallContext) {
    try {
      return yield* call.next(call.request, context);
    } catch (error) {
      if (AppError.is(error)) throw encodeError(error);
      if (error instanceof ServerError) throw error;
      if (context.signal.aborted) throw error; // the caller gave up (deadline or cancel): nothing to log
      const requestId = context.metadata.get(REQUEST_ID_KEY);
      logger.error({ err: error, requestId, method: call.method.path }, 'unhandled error in gRPC handler');
      throw new ServerError(Status.INTERNAL, JSON.stringify({ code: 'internal', message: 'Internal error' }));
    }
  };
}
