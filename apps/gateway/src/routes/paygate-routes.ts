import type { ErrorCode } from '@ctk/shared';
import type { GatewayDeps } from '../deps.js';
import { gateCheck, gateKeys, gatePaymentPage, gateResource, gateResourcePage, gateVerified } from '../paygate/paygate-answers.js';
import {
  gateCheck as gateCheckBody,
  gateCheckExample,
  gatePayment as gatePaymentBody,
  gatePaymentExample,
  newResource,
  newResourceExample,
  PAYGATE_BODY_LIMIT,
  resourceParams,
} from '../paygate/paygate-input.js';
import { gateCheckView, gateCredentialView, gateKeysView, gatePaymentView, gateResourceView } from '../paygate/paygate-view.js';
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

/**
 * The payment gate (spec 4.7, decision 0021), served by p2p: a merchant's resource server, with its
 * payment-gate key, prices URLs, asks whether each request it receives is paid, verifies payments and
 * lists them. The account is the key's; its organisation's wallet xpub gives each 402 a fresh output.
 * The published keys let the server's middleware check credentials without asking.
 */
export function paygateRoutes(deps: GatewayDeps): Record<string, RouteDefinition> {
  const p2p = deps.services.p2p;
  const issuer = deps.config.CTK_PUBLIC_URL.replace(/\/$/, '');
  const account = (request: Parameters<typeof resolveGateAccount>[1]) => resolveGateAccount(deps.credentials, request);
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
    'DELETE /api/v1/402/resources/:id': route({
      params: resourceParams,
      noContent: true,
      errors: ['not_found'],
      handle: async ({ params, request }) => {
        await p2p.deleteGateResource({ account: await account(request), id: params.id }, callOptions(request));
      },
    }),
    'POST /api/v1/402/check': route({
      body: gateCheckBody,
      bodyExample: gateCheckExample,
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
    'POST /api/v1/402/verify': route({
      body: gatePaymentBody,
      bodyExample: gatePaymentExample,
      bodyLimit: PAYGATE_BODY_LIMIT,
      answer: gateVerified,
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
        return { payment: gatePaymentView(response.payment), credential: gateCredentialView(response.credential) };
      },
    }),
    'GET /api/v1/402/payments': route({
      query: pageQuery,
      answer: gatePaymentPage,
      handle: async ({ query, request }) => {
        const response = await p2p.listGatePayments(
          { account: await account(request), limit: query.limit, cursor: query.cursor ?? '' },
          callOptions(request),
        );
        return { data: response.payments.map(gatePaymentView), next_cursor: response.nextCursor || null };
      },
    }),
    'GET /.well-known/ctk-paygate.json': route({
      answer: gateKeys,
      answerHeaders: {
        'cache-control': {
          description: 'public, max-age=<max_age_seconds>: shared caches may keep it as long',
          example: 'public, max-age=30',
        },
      },
      handle: async ({ request, reply }) => {
        const keys = gateKeysView(await p2p.getGateKeys({}, callOptions(request)), issuer);
        reply.header('cache-control', `public, max-age=${keys.max_age_seconds}`);
        return keys;
      },
    }),
  };
}

/** The headers the request carried: an absent one is not sent as an empty string. */
function withoutAbsent(headers: Record<string, string | undefined>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter((entry): entry is [string, string] => entry[1] !== undefined));
}
