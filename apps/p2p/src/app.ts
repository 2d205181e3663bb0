import { P2pServiceDefinition } from '@ctk/proto/ctk/p2p/v1/p2p';
import { createLogger, startGrpcServer, type Logger } from '@ctk/shared';
import type { Config } from './config.js';
import { p2pService } from './grpc/p2p-service.js';

export { configSchema, type Config } from './config.js';

/** Serves P2pService and grpc.health.v1. */
export async function startP2p(config: Config, logger: Logger = createLogger('p2p', config.LOG_LEVEL)) {
  const server = await startGrpcServer({
    name: 'p2p',
    address: `${config.GRPC_HOST}:${config.GRPC_PORT}`,
    logger,
    services: [[P2pServiceDefinition, p2pService]],
  });
  return { port: server.port, close: (): Promise<void> => server.shutdown() };
}
