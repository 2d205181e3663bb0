import type { FastifyInstance } from 'fastify';
import { ENDPOINTS, type Endpoint } from '../catalog/endpoints.js';
import { toFastifyPath } from '../routes/register-catalog.js';

const ALLOW_HEADERS = 'authorization, content-type, idempotency-key, x-commerce-key, x-request-id';

/**
 * CORS is open only where a browser on another site must call: commerce-key routes (the embedded Buy
 * button), public and optional-key routes (reads, paymail, sign-in). Routes acting with a user's or a
 * payment gate's secret key, and webhooks, send no CORS headers, so browsers on other sites cannot call them.
 */
export function isCorsOpen(endpoint: Endpoint): boolean {
  return endpoint.auth === 'commerce_key' || endpoint.auth === 'none' || endpoint.auth === 'bearer_optional';
}

export function registerCors(app: FastifyInstance): void {
  app.addHook('onSend', (request, reply, payload, done) => {
    const endpoint = request.routeOptions.config.endpoint;
    if (endpoint && isCorsOpen(endpoint)) {
      reply.header('access-control-allow-origin', '*');
      reply.header('access-control-expose-headers', 'x-request-id, idempotent-replayed, retry-after');
    }
    done(null, payload);
  });
  const methodsByPath = new Map<string, string[]>();
  for (const endpoint of ENDPOINTS.filter(isCorsOpen)) {
    const path = toFastifyPath(endpoint.path);
    methodsByPath.set(path, [...(methodsByPath.get(path) ?? []), endpoint.method]);
  }
  for (const [path, methods] of methodsByPath) {
    app.options(path, async (_request, reply) =>
      reply
        .code(204)
        .header('access-control-allow-origin', '*')
        .header('access-control-allow-methods', methods.join(', '))
        .header('access-control-allow-headers', ALLOW_HEADERS)
        .header('access-control-max-age', '600')
        .send(),
    );
  }
}
