import type { Endpoint } from './catalog/endpoints.js';
import type { Caller, OrgContext } from './auth/types.js';

declare module 'fastify' {
  interface FastifyRequest {
    caller: Caller;
    org?: OrgContext;
    /** The body exactly as received: signatures and idempotency hashes are computed over it. */
    rawBody?: string;
    idempotencyRecordId?: string | undefined;
  }
  interface FastifyContextConfig {
    endpoint?: Endpoint;
  }
}
