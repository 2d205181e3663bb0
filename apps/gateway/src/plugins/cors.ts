import type { FastifyInstance } from 'fastify';
import { ENDPOINTS, endpointKey, type Endpoint } from '../catalog/endpoints.js';
import { toFastifyPath } from '../routes/register-catalog.js';
import type { RouteDefinition } from '../routes/route-definition.js';

const ALLOW_HEADERS = 'authorization, content-type, idempotency-key, x-commerce-key, x-request-id';

/**
 * CORS is open only where a browser on another site must call without a secret: commerce-key routes (the
 * embedded Buy button; the commerce key is publishable), public and optional-key routes (reads, paymail,
 * sign-in). Routes acting with a user's or a payment gate's secret key, and webhooks, send no CORS headers,
 * so browsers on other sites cannot call them: that includes an optional-key route that acts on a user and
 * so needs the key (`user: true`: the wallet passes, POST /api/v1/items, POST /api/v1/organizations;
 * docs/decisions/0024-proof-holds-and-privacy.md).
 */
function isCorsOpen(endpoint: Endpoint, definition: Pick<RouteDefinition, 'user'> | undefined): boolean {
  if (definition?.user) return false;
  return endpoint.auth === 'commerce_key' || endpoint.auth === 'none' || endpoint.auth === 'bearer_optional';
}

export function registerCors(app: FastifyInstance, handlers: ReadonlyMap<string, RouteDefinition>): void {
  const open = new Set(ENDPOINTS.filter((endpoint) => isCorsOpen(endpoint, handlers.get(endpointKey(endpoint)))).map(endpointKey));
  app.addHook('onSend', (request, reply, payload, done) => {
    const endpoint = request.routeOptions.config.endpoint;
    if (endpoint && open.has(endpointKey(endpoint))) {
      reply.header('access-control-allow-origin', '*');
      reply.header('access-control-expose-headers', 'x-request-id, idempotent-replayed, retry-after');
    }
    done(null, payload);
  });
  const methodsByPath = new Map<string, string[]>();
  for (const endpoint of ENDPOINTS.filter((endpoint) => open.has(endpointKey(endpoint)))) {
    const path = toFastifyPath(endpoint.path);
    methodsByPath.set(path, [...(methodsByPath.get(path) ?? []), endpoint.method]);
  }
  for (const [path, methods] of methodsByPath) {
    app.options(path, async (request, reply) => {
      // A preflight for a method that takes a secret on this path (GET beside a public POST) opens nothing.
      const asked = request.headers['access-control-request-method'];
      if (typeof asked === 'string' && !methods.includes(asked.toUpperCase())) return reply.code(204).send();
      return reply
        .code(204)
        .header('access-control-allow-origin', '*')
        .header('access-control-allow-methods', methods.join(', '))
        .header('access-control-allow-headers', ALLOW_HEADERS)
        .header('access-control-max-age', '600')
        .send();
    });
  }
}
