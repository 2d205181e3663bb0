import type { GatewayDeps } from '../deps.js';
import { broadcastResult, CHAIN_API_FILES, chainApiAnswer, utxoList } from '../wallet/wallet-answers.js';
import { broadcastExample, utxosQuery, broadcastBody, passthroughParams } from '../wallet/wallet-input.js';
import { callOptions } from './service-call.js';
import { route, type RouteDefinition } from './route-definition.js';

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
    'GET /api/v1/wallet/utxos': route({
      query: utxosQuery,
      answer: utxoList,
      handle: async ({ query, request }) => {
        const { utxos } = await deps.services.p2p.listUtxos({ address: query.address }, callOptions(request));
        return {
          address: query.address,
          data: utxos.map((utxo) => ({ txid: utxo.txid, vout: utxo.vout, satoshis: Number(utxo.satoshis), height: utxo.height || null })),
        };
      },
    }),
    'POST /api/v1/wallet/broadcast': route({
      body: broadcastBody,
      bodyExample: broadcastExample,
      answer: broadcastResult,
      errors: ['chain_rejected'],
      handle: async ({ body, request }) => {
        const answer = await deps.services.p2p.broadcastTransaction({ transaction: body.transaction }, callOptions(request));
        return { txid: answer.txid, state: answer.state, arc_status: answer.arcStatus || null };
      },
    }),
    'GET /api/v1/bsv/*path': passthrough,
    'POST /api/v1/bsv/*path': passthrough,
  };
}
