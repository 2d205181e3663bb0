import { AppError } from '@ctk/shared';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { authenticate, requireUser } from '../auth/authenticate.js';
import { ENDPOINTS, endpointKey, type Endpoint } from '../catalog/endpoints.js';
import type { GatewayDeps } from '../deps.js';
import { bsvaliasErrorBody, errorHandler } from '../plugins/errors.js';
import { beginIdempotent } from '../plugins/idempotency.js';
import { allowance, callerAllowance, clientAddress } from '../plugins/rate-limits.js';
import { unknownQuery } from '../plugins/request-refusals.js';
import { parseInput, successStatus, type RouteDefinition } from './route-definition.js';

/**
 * Registers every catalog endpoint: a route's own per-address limits, auth and role, the caller's
 * allowance, then Idempotency-Key, then the handler with validated input. An endpoint without a handler
 * answers 501 `not_implemented` naming its capability. `jsonAlso`: the media types other than JSON that
 * some route reads as JSON (its `jsonAlso`), which the other routes refuse.
 */
export function registerCatalog(
  app: FastifyInstance,
  { config, prisma, credentials }: GatewayDeps,
  handlers: ReadonlyMap<string, RouteDefinition>,
  jsonAlso: ReadonlySet<string>,
): void {
  const perAddress = (max: number, name: string) => allowance(app, max, (request) => `${name}:${clientAddress(request)}`);
  // A key not in memory costs its sender's address one lookup (auth/credentials.ts).
  const auth = { credentials, lookups: perAddress(config.CTK_RATE_LIMIT_PER_MINUTE, 'lookup') };
  const signup = perAddress(config.CTK_SIGNUP_RATE_LIMIT_PER_MINUTE, 'signup');
  const spendCallers = callerAllowance(app, config);
  for (const endpoint of ENDPOINTS) {
    const definition = handlers.get(endpointKey(endpoint));
    // Stricter per-address limits of a route, spent before authentication.
    const routeAllowances = [
      ...(definition?.signup ? [signup] : []),
      ...(definition?.rateLimitPerMinute ? [perAddress(definition.rateLimitPerMinute, endpoint.path)] : []),
    ];
    app.route({
      method: endpoint.method,
      url: toFastifyPath(endpoint.path),
      // Catalog routes spend their allowance after authentication (below), not the global per-address one.
      config: { endpoint, rateLimit: false },
      ...(definition?.bodyLimit ? { bodyLimit: definition.bodyLimit } : {}),
      ...(definition?.bsvalias ? { errorHandler: errorHandler(bsvaliasErrorBody) } : {}),
      onRequest: (_request, reply, done) => {
        // What a credential reads, or an answer holding a new key, must stay out of shared caches.
        if (endpoint.auth !== 'none' || definition?.secrets) reply.header('cache-control', 'no-store');
        done();
      },
      // Unknown query parameters are refused on every built route before credentials are asked for, as a
      // malformed body is; the paymail routes answer paymail clients by the paymail rules, and an unbuilt route answers 501.
      ...(definition && !definition.bsvalias
        ? {
            preValidation: (request: FastifyRequest, _reply: FastifyReply, done: (error?: Error) => void) =>
              done(unknownQuery(definition.query, request.query)),
          }
        : {}),
      preHandler: async (request, reply) => {
        for (const spend of routeAllowances) await spend(request);
        try {
          await authenticate(request, endpoint, auth);
        } finally {
          // Refused credentials spend the address's allowance: a fresh junk key buys nothing.
          await spendCallers(request);
        }
        if (definition?.user) requireUser(request);
        if (definition?.creates && (await beginIdempotent(prisma, request, reply, definition.secrets))) return reply;
      },
      handler: definition ? implemented(definition, jsonAlso) : notImplemented(endpoint),
    });
  }
}

export function toFastifyPath(path: string): string {
  return path.replace(/\*\w+$/, '*');
}

function implemented(definition: RouteDefinition, jsonAlso: ReadonlySet<string>) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const media = mediaTypeOf(request.headers['content-type']);
    // The gateway reads another route's JSON media type (BIP270's Payment) as JSON; this route does not take it.
    if (jsonAlso.has(media) && definition.jsonAlso?.body !== media)
      throw new AppError('unsupported_media_type', 'Send the body as application/json.');
    const lenient = { allowNul: definition.bsvalias };
    const params = parseInput(definition.params, request.params, 'path', lenient);
    const query = parseInput(definition.query, request.query, 'query', lenient);
    const body = parseInput(definition.body, request.body, 'body', lenient);
    // Before the handler, so that one answering its other success status (`alsoStatus`) can set it.
    reply.code(successStatus(definition));
    const answer = await definition.handle({ body, query, params, request, reply });
    const other = definition.jsonAlso;
    if (other && (media === other.body || accepts(request.headers.accept, other.answer))) {
      reply.type(other.answer);
      return JSON.stringify(answer);
    }
    return answer;
  };
}

/** The media type of a Content-Type header, without parameters, in lower case ('' without one). */
function mediaTypeOf(header: string | undefined): string {
  return (header ?? '').split(';')[0]!.trim().toLowerCase();
}

/** Whether an Accept header names this media type itself (a wildcard keeps the default, JSON). */
function accepts(header: string | undefined, media: string): boolean {
  return (header ?? '').split(',').some((range) => mediaTypeOf(range) === media);
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
