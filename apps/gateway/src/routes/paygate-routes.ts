import type { ErrorCode } from '@ctk/shared';
import type { FastifyRequest } from 'fastify';
import { exampleOf, messageDesc } from '../contract/contract-registry.js';
import { toJson } from '../contract/json-mapping.js';
import { messageSchema } from '../contract/message-schema.js';
import { rpcRoute } from '../contract/rpc-route.js';
import type { GatewayDeps } from '../deps.js';
import { gateCheck, gateResource, gateResourcePage } from '../paygate/paygate-answers.js';
import {
  gateCheck as gateCheckBody,
  gatePayment as gatePaymentBody,
  newResource,
  newResourceExample,
  PAYGATE_BODY_LIMIT,
  resourceParams,
} from '../paygate/paygate-input.js';
import { gateCheckView, gateResourceView } from '../paygate/paygate-view.js';
import { resolveGateAccount } from '../paygate/resolve-gate-account.js';
import { pageQuery } from './pagination.js';
import { route, type RouteDefinition } from './route-definition.js';
import { callOptions } from './service-call.js';

/** What a payment can be refused with (docs/decisions/0007-p2p-paymail.md's verifier, and the gate's own). */
const PAYMENT_ERRORS: ErrorCode[] = [
  'txid_already_used',
  'payment_underpaid',
  'payment_wrong_output',
  'payment_expired',
  'payment_invalid',
  'chain_rejected',
  'chain_unavailable',
  'conflict',
];

/** Verifying a payment broadcasts it, which may take the chain a few seconds. */
const PAYMENT_CALL_TIMEOUT_MS = 30_000;

const verified = messageDesc('ctk.p2p.v1.VerifyGatePaymentResponse');
const published = messageDesc('ctk.p2p.v1.PaygateKeys');

/**
 * The payment gate (spec 4.7, decision 0021), served by p2p: a merchant's resource server, with its
 * payment-gate key, prices URLs, asks whether each request it receives is paid, verifies payments and
 * lists them. The account is the key's; its organisation's wallet xpub gives each 402 a fresh output.
 * The published keys let the server's middleware check credentials without asking.
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
    'GET /api/v1/402/resources': route({
      query: pageQuery,
      answer: gateResourcePage,
      handle: async ({ query, request }) => {
        const response = await p2p.listGateResources(
          { account: await account(request), limit: query.limit, cursor: query.cursor ?? '' },
          callOptions(request),
        );
        return { data: response.resources.map(gateResourceView), next_cursor: response.nextCursor || null };
      },
    }),
    'POST /api/v1/402/resources': route({
      body: newResource,
      bodyExample: newResourceExample,
      creates: true,
      status: 201,
      answer: gateResource,
      errors: ['already_exists', 'failed_precondition'],
      handle: async ({ body, request }) => {
        const response = await p2p.createGateResource(
          {
            account: await account(request),
            method: body.method,
            path: body.path,
            priceSatoshis: BigInt(body.price_satoshis),
            grantKind: body.grant.kind,
            grantCalls: body.grant.kind === 'calls' ? body.grant.calls : 0,
            grantSeconds: body.grant.kind === 'window' ? body.grant.seconds : 0,
            description: body.description,
          },
          callOptions(request),
        );
        return gateResourceView(response.resource);
      },
    }),
    'DELETE /api/v1/402/resources/:id': rpcRoute(deps.services, {
      rpc: ['p2p', 'deleteGateResource'],
      params: resourceParams,
      fill: keyAccount,
      errors: ['not_found'],
    }),
    'POST /api/v1/402/check': route({
      body: gateCheckBody,
      bodyExample: exampleOf(messageDesc('ctk.p2p.v1.CheckGateRequestRequest')) as never,
      bodyLimit: PAYGATE_BODY_LIMIT,
      answer: gateCheck,
      // A payment refused is a 402 with its refusal; what fails the check itself is the gate's or the chain's.
      // unavailable: every receiving address anyone may open is held (decision 0022); retry-after says when one frees.
      errors: ['failed_precondition', 'chain_unavailable', 'unavailable'],
      handle: async ({ body, request }) => {
        const response = await p2p.checkGateRequest(
          {
            account: await account(request),
            method: body.method,
            url: body.url,
            headers: withoutAbsent(body.headers),
            payeeKey: body.payee_key ?? '',
          },
          { ...callOptions(request), timeoutMs: PAYMENT_CALL_TIMEOUT_MS },
        );
        return gateCheckView(response);
      },
    }),
    // The payment's shape rules are the gateway's to refuse before p2p is asked; its answer is the contract's.
    'POST /api/v1/402/verify': route({
      body: gatePaymentBody,
      bodyExample: exampleOf(messageDesc('ctk.p2p.v1.VerifyGatePaymentRequest')) as never,
      bodyLimit: PAYGATE_BODY_LIMIT,
      answer: messageSchema(verified, 'answer'),
      errors: [...PAYMENT_ERRORS, 'failed_precondition'],
      handle: async ({ body, request }) => {
        const response = await p2p.verifyGatePayment(
          {
            account: await account(request),
            transaction: body.transaction,
            vout: body.vout,
            nonce: body.nonce ?? '',
            sender: body.sender ?? '',
            time: body.time ?? '',
          },
          { ...callOptions(request), timeoutMs: PAYMENT_CALL_TIMEOUT_MS },
        );
        return toJson(verified, response as never) as never;
      },
    }),
    'GET /api/v1/402/payments': rpcRoute(deps.services, {
      rpc: ['p2p', 'listGatePayments'],
      query: pageQuery,
      fill: keyAccount,
      answer: { page: 'payments' },
    }),
    'GET /.well-known/ctk-paygate.json': route({
      answer: messageSchema(published, 'answer'),
      answerHeaders: {
        'cache-control': {
          description: 'public, max-age=<max_age_seconds>: shared caches may keep it as long',
          example: 'public, max-age=30',
        },
      },
      // The keys as JWKs (OKP, Ed25519), under this instance's name.
      handle: async ({ request, reply }) => {
        const keys = await p2p.getGateKeys({}, callOptions(request));
        reply.header('cache-control', `public, max-age=${keys.maxAgeSeconds}`);
        return toJson(published, {
          issuer,
          keys: keys.keys.map((key) => ({ ...key, alg: 'EdDSA', crv: 'Ed25519' })),
          revoked: { resources: keys.revokedResources, credentials: keys.revokedCredentials },
          maxAgeSeconds: keys.maxAgeSeconds,
        }) as never;
      },
    }),
  };
}

/** The headers the request carried: an absent one is not sent as an empty string. */
function withoutAbsent(headers: Record<string, string | undefined>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter((entry): entry is [string, string] => entry[1] !== undefined));
}
