import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { exampleOf, messageDesc } from '../contract/contract-registry.js';
import { fromJson, toJson } from '../contract/json-mapping.js';
import { messageSchema } from '../contract/message-schema.js';
import { rpcRoute } from '../contract/rpc-route.js';
import type { GatewayDeps } from '../deps.js';
import { gateCheck, gateCheckView } from '../paygate/gate-check-answer.js';
import { resolveGateAccount } from '../paygate/resolve-gate-account.js';
import { pageQuery } from './pagination.js';
import { route, type RouteDefinition } from './route-definition.js';
import { callOptions } from './service-call.js';

/**
 * /check and /verify carry a transaction as base64 BEEF, a few MB at most; the gRPC message to p2p (4 MiB at
 * most) then still fits, with the other fields.
 */
const PAYGATE_BODY_LIMIT = 4_000_000;

/** Verifying a payment broadcasts it, which may take the chain a few seconds. */
const PAYMENT_CALL_TIMEOUT_MS = 30_000;

const resourceParams = z.object({ id: z.uuid('must be the id of a priced resource (a UUID)') });
const CHECK = messageDesc('ctk.p2p.v1.CheckGateRequestRequest');
const PUBLISHED = messageDesc('ctk.p2p.v1.PaygateKeys');

/**
 * The payment gate (spec 4.7, decision 0021), served by p2p: a merchant's resource server, with its
 * payment-gate key, prices URLs, asks whether each request it receives is paid, verifies payments and
 * lists them. The account is the key's; its organisation's wallet xpub gives each 402 a fresh output.
 * The published keys let the server's middleware check credentials without asking. The gateway checks
 * the requests' shape; p2p owns their rules (paths, prices, grants, payment headers) and names the field it refuses.
 */
export function paygateRoutes(deps: GatewayDeps): Record<string, RouteDefinition> {
  const p2p = deps.services.p2p;
  const issuer = deps.config.CTK_PUBLIC_URL.replace(/\/$/, '');
  const account = (request: FastifyRequest) => resolveGateAccount(deps.credentials, request);
  // The payment-gate account is the key's, never the body's.
  const keyAccount = {
    fields: ['account'],
    from: async ({ request }: { request: FastifyRequest }) => ({ account: await account(request) }),
  };
  return {
    'GET /api/v1/402/resources': rpcRoute(deps.services, {
      rpc: ['p2p', 'listGateResources'],
      query: pageQuery,
      fill: keyAccount,
      answer: { page: 'resources' },
    }),
    'POST /api/v1/402/resources': rpcRoute(deps.services, {
      rpc: ['p2p', 'createGateResource'],
      body: true,
      fill: keyAccount,
      creates: true,
      status: 201,
      answer: 'resource',
      errors: ['already_exists', 'failed_precondition'],
    }),
    'DELETE /api/v1/402/resources/:id': rpcRoute(deps.services, {
      rpc: ['p2p', 'deleteGateResource'],
      params: resourceParams,
      fill: keyAccount,
      errors: ['not_found'],
    }),
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
        const check = { ...fromJson(CHECK, body as never), account: await account(request) };
        const response = await p2p.checkGateRequest(check, { ...callOptions(request), timeoutMs: PAYMENT_CALL_TIMEOUT_MS });
        return gateCheckView(response);
      },
    }),
    'POST /api/v1/402/verify': rpcRoute(deps.services, {
      rpc: ['p2p', 'verifyGatePayment'],
      body: true,
      fill: keyAccount,
      bodyLimit: PAYGATE_BODY_LIMIT,
      timeoutMs: PAYMENT_CALL_TIMEOUT_MS,
      // What a payment can be refused with (docs/decisions/0007-p2p-paymail.md's verifier, and the gate's own).
      errors: [
        'txid_already_used',
        'payment_underpaid',
        'payment_wrong_output',
        'payment_expired',
        'payment_invalid',
        'chain_rejected',
        'chain_unavailable',
        'conflict',
        'failed_precondition',
      ],
    }),
    'GET /api/v1/402/payments': rpcRoute(deps.services, {
      rpc: ['p2p', 'listGatePayments'],
      query: pageQuery,
      fill: keyAccount,
      answer: { page: 'payments' },
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
