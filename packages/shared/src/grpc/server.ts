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
}): Promise<GrpcServer> {
  const health = HealthState();
  const server = createServer().use(errorMiddleware(options.logger));
  for (const [definition, implementation] of options.services) server.add(definition, implementation);
  server.add(HealthDefinition, HealthServiceImpl(health));
  const port = await server.listen(options.address);
  health.setStatus('healthy');
  for (const [definition] of options.services) health.setStatus('healthy', definition.fullName);
  options.logger.info({ port }, `${options.name} gRPC server listening`);
  return {
    port,
    async shutdown() {
      health.setStatus('unhealthy');
      await server.shutdown();
    },
  };
}

/** Encodes an AppError into the status details as JSON, which the gateway's client decodes. */
export function encodeError(error: AppError): ServerError {
  return new ServerError(
    error.grpcStatus,
    JSON.stringify({ code: error.code, message: error.message, details: error.details }),
  );
}

function errorMiddleware(logger: Logger) {
  return async function* <Req, Res>(call: ServerMiddlewareCall<Req, Res>, context: CallContext) {
    try {
      return yield* call.next(call.request, context);
    } catch (error) {
      if (AppError.is(error)) throw encodeError(error);
      if (error instanceof ServerError) throw error;
      const requestId = context.metadata.get(REQUEST_ID_KEY);
      logger.error({ err: error, requestId, method: call.method.path }, 'unhandled error in gRPC handler');
      throw new ServerError(Status.INTERNAL, JSON.stringify({ code: 'internal', message: 'Internal error' }));
    }
  };
}
