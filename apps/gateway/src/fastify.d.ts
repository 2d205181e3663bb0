import type { Endpoint } from './catalog/endpoints.js';
import type { Caller, OrgContext } from './auth/types.js';
import type { IdempotentRequest } from './plugins/idempotency.js';

declare module 'fastify' {
  interface FastifyRequest {
    caller: Caller;
    org?: OrgContext;
    /** The body exactly as received: signatures and idempotency hashes are computed over it. */
    rawBody?: string;
    /** The same body as the bytes received: provider webhook signatures are verified over them (decision 0019). */
    rawBodyBytes?: Buffer;
    /** Set when the request began an idempotent record (plugins/idempotency.ts). */
    idempotency?: IdempotentRequest | undefined;
  }
  interface FastifyContextConfig {
    endpoint?: Endpoint;
  }
}
