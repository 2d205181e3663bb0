import { CommerceServiceDefinition } from '@ctk/proto/ctk/commerce/v1/commerce';
import { createLogger, startGrpcServer, type Logger } from '@ctk/shared';
import type { Config } from './config.js';
import { commerceService } from './grpc/commerce-service.js';

export { configSchema, type Config } from './config.js';

/** Serves CommerceService and grpc.health.v1. */
export async function startCommerce(config: Config, logger: Logger = createLogger('commerce', config.LOG_LEVEL)) {
  const server = await startGrpcServer({
    name: 'commerce',
    address: `${config.GRPC_HOST}:${config.GRPC_PORT}`,
    logger,
    services: [[CommerceServiceDefinition, commerceService]],
  });
  return { port: server.port, close: (): Promise<void> => server.shutdown() };
}
