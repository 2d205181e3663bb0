import { messageDesc } from '../contract/contract-registry.js';
import { toJson } from '../contract/json-mapping.js';
import { messageSchema } from '../contract/message-schema.js';
import type { GatewayDeps } from '../deps.js';
import { route, type RouteDefinition } from './route-definition.js';
import { callOptions } from './service-call.js';

const PUBLISHED = messageDesc('ctk.p2p.v1.PaygateKeys');

/**
 * The payment gate's published keys (decision 0021), served by p2p, by hand: what a resource server's
 * middleware checks credentials with, without asking. The gate's other routes are declared in the contract.
 */
export function paygateRoutes(deps: GatewayDeps): Record<string, RouteDefinition> {
  const p2p = deps.services.p2p;
  const issuer = deps.config.CTK_PUBLIC_URL.replace(/\/$/, '');
  return {
    // By hand: the keys as JWKs (OKP, Ed25519) under this instance's name, cached as long as p2p says.
    'GET /.well-known/ctk-paygate.json': route({
      answer: messageSchema(PUBLISHED, 'answer'),
      answerHeaders: {
        'cache-control': {
          description: 'public, max-age=<max_age_seconds>: shared caches may keep it as long',
          example: 'public, max-age=30',
        },
      },
      handle: async ({ request, reply }) => {
        const keys = await p2p.getGateKeys({}, callOptions(request));
        reply.header('cache-control', `public, max-age=${keys.maxAgeSeconds}`);
        return toJson(PUBLISHED, {
          issuer,
          keys: keys.keys.map((key) => ({ ...key, alg: 'EdDSA', crv: 'Ed25519' })),
          revoked: { resources: keys.revokedResources, credentials: keys.revokedCredentials },
          maxAgeSeconds: keys.maxAgeSeconds,
        }) as never;
      },
    }),
  };
}
