import { defineService } from '@ctk/shared';
import { configSchema } from './config.js';
import { federationService } from './grpc/federation-service.js';

export { configSchema, type Config } from './config.js';

/** The federation service: FederationService over gRPC (no database yet). */
export const service = defineService({
  name: 'federation',
  configSchema,
  build: () => ({ grpc: federationService }),
});
