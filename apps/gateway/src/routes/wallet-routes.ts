import { z } from 'zod';
import { messageDesc } from '../contract/contract-registry.js';
import { messageSchema } from '../contract/message-schema.js';
import { rpcRoute } from '../contract/rpc-route.js';
import type { GatewayDeps } from '../deps.js';
import { CHAIN_API_FILES, chainApiAnswer } from '../wallet/wallet-answers.js';
import { callOptions } from './service-call.js';
import { route, type RouteDefinition } from './route-definition.js';

/** The request's fields, shape only: p2p checks the address. Other parameters are ignored, as they always were. */
const utxosQuery = z.object((messageSchema(messageDesc('ctk.p2p.v1.ListUtxosRequest'), 'request') as z.ZodObject).shape);
const passthroughParams = z.object({ '*': z.string().max(300) });

/**
 * The wallet API (spend what you hold, keys stay with the caller) and the chain passthrough, served by p2p.
 * The passthrough answers with the chain API's own status and body, at a stricter rate per client address.
 */
export function walletRoutes(deps: GatewayDeps): Record<string, RouteDefinition> {
  const passthrough = route({
    params: passthroughParams,
    rateLimitPerMinute: deps.config.CTK_PASSTHROUGH_RATE_LIMIT_PER_MINUTE,
    answer: chainApiAnswer,
    files: CHAIN_API_FILES,
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
  return {
    'GET /api/v1/wallet/utxos': rpcRoute(deps.services, { rpc: ['p2p', 'listUtxos'], query: utxosQuery, view: 'ctk.p2p.v1.UtxoList' }),
    'POST /api/v1/wallet/broadcast': rpcRoute(deps.services, {
      rpc: ['p2p', 'broadcastTransaction'],
      body: true,
      errors: ['chain_rejected'],
    }),
    'GET /api/v1/bsv/*path': passthrough,
    'POST /api/v1/bsv/*path': passthrough,
  };
}
