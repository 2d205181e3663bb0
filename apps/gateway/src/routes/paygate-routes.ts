import { exampleOf, messageDesc } from '../contract/contract-registry.js';
import { fromJson, toJson } from '../contract/json-mapping.js';
import { messageSchema } from '../contract/message-schema.js';
import { PAYGATE_BODY_LIMIT } from '../contract/route-hooks.js';
import type { GatewayDeps } from '../deps.js';
import { gateCheck, gateCheckView } from '../paygate/gate-check-answer.js';
import { resolveGateAccount } from '../paygate/resolve-gate-account.js';
import { route, type RouteDefinition } from './route-definition.js';
import { callOptions } from './service-call.js';

/** Verifying a payment broadcasts it, which may take the chain a few seconds. */
const PAYMENT_CALL_TIMEOUT_MS = 30_000;

const CHECK = messageDesc('ctk.p2p.v1.CheckGateRequestRequest');
const PUBLISHED = messageDesc('ctk.p2p.v1.PaygateKeys');

/**
 * The payment gate (spec 4.7, decision 0021), served by p2p, by hand: a resource server's check of a
 * request (a 402 carries x402's own document), and the published keys that let its middleware check
 * credentials without asking. The account is the key's. The other routes are declared in the contract.
 */
export function paygateRoutes(deps: GatewayDeps): Record<string, RouteDefinition> {
  const p2p = deps.services.p2p;
  const issuer = deps.config.CTK_PUBLIC_URL.replace(/\/$/, '');
  return {
    // By hand: p2p's answer, with x402's own document parsed into it (gate-check-answer.ts).
    'POST /api/v1/402/check': route({
      body: messageSchema(CHECK, 'request', ['account']),
      bodyExample: exampleOf(CHECK) as never,
      bodyLimit: PAYGATE_BODY_LIMIT,
      answer: gateCheck,
      // A payment refused is a 402 with its refusal; what fails the check itself is the gate's or the chain's.
      // unavailable: every receiving address anyone may open is held (decision 0022); retry-after says when one frees.
      errors: ['failed_precondition', 'chain_unavailable', 'unavailable'],
      handle: async ({ body, request }) => {
        const check = { ...fromJson(CHECK, body as never), account: await resolveGateAccount(deps.credentials, request) };
        const response = await p2p.checkGateRequest(check, { ...callOptions(request), timeoutMs: PAYMENT_CALL_TIMEOUT_MS });
        return gateCheckView(response);
      },
    }),
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
