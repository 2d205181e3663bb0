import { ContractsServiceDefinition } from '@ctk/proto/ctk/contracts/v1/contracts';
import { createLogger, startGrpcServer, type Logger } from '@ctk/shared';
import type { Config } from './config.js';
import { contractsService } from './grpc/contracts-service.js';

export { configSchema, type Config } from './config.js';

/** Serves ContractsService and grpc.health.v1. */
export async function startContracts(config: Config, logger: Logger = createLogger('contracts', config.LOG_LEVEL)) {
  const server = await startGrpcServer({
    name: 'contracts',
    address: `${config.GRPC_HOST}:${config.GRPC_PORT}`,
    logger,
    services: [[ContractsServiceDefinition, contractsService]],
  });
  return { port: server.port, close: (): Promise<void> => server.shutdown() };
}
