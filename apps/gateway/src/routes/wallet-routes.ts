import { z } from 'zod';
import type { GatewayDeps } from '../deps.js';
import { named } from './answer-schema.js';
import { callOptions } from './service-call.js';
import { route, type RouteDefinition } from './route-definition.js';

/** The chain API's own answer, passed on with its status and media type: JSON for most routes. */
const chainApiAnswer = named('ChainApiAnswer', z.unknown(), {
  chain: 'main',
  blocks: 938_412,
  headers: 938_412,
  bestblockhash: '000000000000000003a1f5c7e9b2d4f6a8c0e1b3d5f7a9c2e4b6d8f0a1c3e5b7',
});

/**
 * The chain passthrough, served by p2p: the chain API's own status and body, at a stricter rate per client
 * address. (The wallet API's other routes are declared in the contract.)
 */
export function walletRoutes(deps: GatewayDeps): Record<string, RouteDefinition> {
  const passthrough = route({
    params: z.object({ '*': z.string().max(300) }),
    rateLimitPerMinute: deps.config.CTK_PASSTHROUGH_RATE_LIMIT_PER_MINUTE,
    answer: chainApiAnswer,
    files: {
      'text/plain': {
        description: 'tx/<txid>/hex and a broadcast: the transaction in hex, or its txid',
        example: 'b256360aa2c864e558e8064808f27b1ef4190f07c8402ae6ae3d512a6b992c9e',
      },
    },
    errors: ['not_found'],
    handle: async ({ params, request, reply }) => {
      const answer = await deps.services.p2p.chainPassthrough(
        {
          method: request.method,
          path: params['*'],
          body: Buffer.from(request.rawBody ?? ''),
          contentType: String(request.headers['content-type'] ?? ''),
        },
        callOptions(request),
      );
      return reply
        .code(answer.status)
        .type(answer.contentType || 'application/octet-stream')
        .send(answer.body);
    },
  });
  return { 'GET /api/v1/bsv/*path': passthrough, 'POST /api/v1/bsv/*path': passthrough };
}
