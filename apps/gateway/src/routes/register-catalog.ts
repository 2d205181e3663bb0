import { AppError } from '@ctk/shared';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { authenticate, requireUser, type AuthDeps } from '../auth/authenticate.js';
import { ENDPOINTS, endpointKey, type Endpoint } from '../catalog/endpoints.js';
import type { PrismaClient } from '../data/prisma.js';
import { bsvaliasErrorBody, errorHandler } from '../plugins/errors.js';
import { beginIdempotent } from '../plugins/idempotency.js';
import { parseInput, type RouteDefinition } from './route-definition.js';

/**
 * Registers every catalog endpoint: auth and role first, then Idempotency-Key, then the handler with
 * validated input. An endpoint without a handler answers 501 `not_implemented` naming its capability.
 */
export function registerCatalog(
  app: FastifyInstance,
  options: { handlers: Map<string, RouteDefinition>; auth: AuthDeps; prisma: PrismaClient; signupRateLimit: number },
): void {
  for (const endpoint of ENDPOINTS) {
    const definition = options.handlers.get(endpointKey(endpoint));
    app.route({
      method: endpoint.method,
      url: toFastifyPath(endpoint.path),
      config: {
        endpoint,
        ...(definition?.signup
          ? { rateLimit: { max: options.signupRateLimit, timeWindow: 60_000, keyGenerator: (r: { ip: string }) => `signup:${r.ip}` } }
          : {}),
        ...(definition?.rateLimitPerMinute
          ? {
              rateLimit: {
                max: definition.rateLimitPerMinute,
                timeWindow: 60_000,
                keyGenerator: (r: { ip: string }) => `${endpoint.path}:${r.ip}`,
              },
            }
          : {}),
      },
      ...(definition?.bsvalias ? { errorHandler: errorHandler(bsvaliasErrorBody) } : {}),
      onRequest: (_request, reply, done) => {
        // What a credential reads, or an answer holding a new key, must stay out of shared caches.
        if (endpoint.auth !== 'none' || definition?.secrets) reply.header('cache-control', 'no-store');
        done();
      },
      preHandler: async (request, reply) => {
        await authenticate(request, endpoint, options.auth);
        if (definition?.user) requireUser(request);
        if (definition?.creates && (await beginIdempotent(options.prisma, request, reply, definition.secrets))) return reply;
      },
      handler: definition ? implemented(definition) : notImplemented(endpoint),
    });
  }
}

export function toFastifyPath(path: string): string {
  return path.replace(/\*\w+$/, '*');
}

function implemented(definition: RouteDefinition) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const lenient = { allowNul: definition.bsvalias };
    const params = parseInput(definition.params, request.params, 'path', lenient);
    const query = parseInput(definition.query, request.query, 'query', lenient);
    const body = parseInput(definition.body, request.body, 'body', lenient);
    const result = await definition.handle({ body, query, params, request, reply });
    if (!reply.sent) reply.code(definition.status ?? 200);
    return result;
  };
}

function notImplemented(endpoint: Endpoint) {
  return async () => {
    throw new AppError(
      'not_implemented',
      `${endpoint.method} ${endpoint.path} is not built yet on this instance (capability ${endpoint.capability ?? 'none'}).`,
      { capability: endpoint.capability },
    );
  };
}
