import { FederationServiceDefinition } from '@ctk/proto/ctk/federation/v1/federation';
import { createLogger, startGrpcServer, type Logger } from '@ctk/shared';
import type { Config } from './config.js';
import { federationService } from './grpc/federation-service.js';

export { configSchema, type Config } from './config.js';

/** Serves FederationService and grpc.health.v1. */
export async function startFederation(config: Config, logger: Logger = createLogger('federation', config.LOG_LEVEL)) {
  const server = await startGrpcServer({
    name: 'federation',
    address: `${config.GRPC_HOST}:${config.GRPC_PORT}`,
    logger,
    services: [[FederationServiceDefinition, federationService]],
  });
  return { port: server.port, close: (): Promise<void> => server.shutdown() };
}
