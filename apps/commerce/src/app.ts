import { defineService } from '@ctk/shared';
import { configSchema } from './config.js';
import { commerceService } from './grpc/commerce-service.js';

export { configSchema, type Config } from './config.js';

/** The commerce service: CommerceService over gRPC (no database yet). */
export const service = defineService({
  name: 'commerce',
  configSchema,
  build: () => ({ grpc: commerceService }),
});
