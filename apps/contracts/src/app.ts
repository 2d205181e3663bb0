import { defineService } from '@ctk/shared';
import { configSchema } from './config.js';
import { contractsService } from './grpc/contracts-service.js';

export { configSchema, type Config } from './config.js';

/** The contracts service: ContractsService over gRPC (no database yet). */
export const service = defineService({
  name: 'contracts',
  configSchema,
  build: () => ({ grpc: contractsService }),
});
