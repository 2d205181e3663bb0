import { AppError, type ErrorCode } from '@ctk/shared';
import { z } from 'zod';
import type { GatewayDeps } from '../deps.js';
import { paymailDomain } from '../paymail/paymail-domain.js';
import { getPublicProfile } from '../paymail/get-public-profile.js';
import { resolvePaymail, type PaymailTarget } from '../paymail/paymail-target.js';
import { bsvaliasCapabilities, capabilities, paymailPki, publicProfile, verifiedPubkey } from '../paymail/paymail-answers.js';
import { messageDesc } from '../contract/contract-registry.js';
import { fromJson } from '../contract/json-mapping.js';
import { rpcRoute, type RpcRouteOptions } from '../contract/rpc-route.js';
import { callOptions, orgRef } from './service-call.js';
import {
  beefBody,
  paymailParams,
  receiveBeefExample,
  receiveBody,
  receiveTransactionExample,
  senderRequest,
  senderRequestExample,
  verifyParams,
} from '../paymail/paymail-input.js';
import { route, type RouteDefinition } from './route-definition.js';

/** What a payment can be refused with (README, "Paymail and the wallet API"). */
const RECEIVE_ERRORS: ErrorCode[] = [
  'not_found',
  'payment_expired',
  'payment_underpaid',
  'payment_wrong_output',
  'chain_rejected',
  'txid_already_used',
  'conflict',
  'invalid_signature',
];

const RECEIVE = messageDesc('ctk.p2p.v1.ReceiveP2pTransactionRequest');

type Json = Record<string, unknown>;
/** A bsvalias body: its schema and example, and the request fields it gives (besides those named as in the request). */
type SpecBody = { schema: z.ZodType; example: object; fields: string[]; from: (body: Json) => Json };

/**
 * Paymail (bsvalias): the capability document, the spec's five routes and the P2P capabilities, in the
 * shapes of the bsvalias specifications, errors as `{"code", "message"}`. The alias is the gateway's (it
 * names the organisation); the identity key (pki, verifypubkey), destinations and payments are p2p's
 * (decisions 0007 and 0028); the public profile is the organisation's own.
 */
export function paymailRoutes(deps: GatewayDeps): Record<string, RouteDefinition> {
  const domain = paymailDomain(deps.config);
  const base = deps.config.CTK_PUBLIC_URL.replace(/\/$/, '');
  const target = (paymail: string) => resolvePaymail(deps.credentials, paymail, domain);
  const forP2p = ({ paymail, org }: PaymailTarget) => ({ paymail, org: orgRef(org) });
  // Anyone may ask for destinations; p2p keeps them within the merchant's gap limit whatever the rate
  // (decision 0007), and this bounds the rows and work one client address can cause.
  const destinationRateLimit = deps.config.CTK_PAYMAIL_DESTINATION_RATE_LIMIT_PER_MINUTE;
  /**
   * A route that is one RPC of p2p for the paymail in the path. A body in the bsvalias spec's own names
   * (camelCase, a nested metadata) has its schema written out, and gives the request's other fields.
   */
  const p2pRoute = (options: RpcRouteOptions<'p2p'>, spec?: SpecBody): RouteDefinition => {
    const declared = rpcRoute(deps, {
      bsvalias: true,
      params: paymailParams,
      ...options,
      fill: {
        fields: ['target', ...(spec?.fields ?? [])],
        from: async ({ params, body }) => ({
          target: forP2p(await target(params.paymail as string)),
          ...spec?.from(body),
        }),
      },
    });
    return spec ? { ...declared, body: spec.schema, bodyExample: spec.example } : declared;
  };
  const received = (schema: z.ZodType, example: object) =>
    p2pRoute(
      { rpc: ['p2p', 'receiveP2pTransaction'], errors: RECEIVE_ERRORS },
      // hex or beef, and reference, are the request's own names; the metadata's are too, one level down.
      {
        schema,
        example,
        fields: ['sender', 'pubkey', 'signature', 'note'],
        from: (body) => fromJson(RECEIVE, (body.metadata ?? {}) as Json),
      },
    );
  return {
    'GET /.well-known/bsvalias': route({
      bsvalias: true,
      answer: bsvaliasCapabilities,
      handle: async () => capabilities(base),
    }),
    'GET /api/v1/bsvalias/id/:paymail': route({
      bsvalias: true,
      params: paymailParams,
      answer: paymailPki,
      errors: ['not_found'],
      handle: async ({ params, request }) => {
        const { paymail, org } = await target(params.paymail);
        const pubkey = await identityKeyOf(org.id, request);
        if (!pubkey) throw new AppError('not_found', `${paymail} has no identity key registered.`);
        return { bsvalias: '1.0' as const, handle: paymail, pubkey };
      },
    }),
    'GET /api/v1/bsvalias/address/:paymail': p2pRoute({
      rpc: ['p2p', 'getPaymentDestination'],
      rateLimitPerMinute: destinationRateLimit,
      errors: ['not_found', 'unavailable'],
    }),
    'POST /api/v1/bsvalias/address/:paymail': p2pRoute(
      {
        rpc: ['p2p', 'getPaymentDestination'],
        rateLimitPerMinute: destinationRateLimit,
        errors: ['not_found', 'invalid_signature', 'unavailable'],
      },
      {
        schema: senderRequest,
        example: senderRequestExample,
        fields: ['sender_request', 'sender_name', 'sender_handle', 'dt', 'amount', 'purpose', 'signature'],
        from: ({ amount, ...sender }) => ({ ...sender, senderRequest: true, amount: amount === undefined ? '' : String(amount) }),
      },
    ),
    'GET /api/v1/bsvalias/public-profile/:paymail': route({
      bsvalias: true,
      params: paymailParams,
      answer: publicProfile,
      errors: ['not_found'],
      handle: async ({ params }) => {
        const { org } = await target(params.paymail);
        return getPublicProfile(deps, org.id);
      },
    }),
    'GET /api/v1/bsvalias/verifypubkey/:paymail/:pubkey': route({
      bsvalias: true,
      params: verifyParams,
      answer: verifiedPubkey,
      errors: ['not_found'],
      handle: async ({ params, request }) => {
        const { paymail, org } = await target(params.paymail);
        const identityKey = await identityKeyOf(org.id, request);
        const match = Boolean(identityKey) && identityKey === params.pubkey.toLowerCase();
        return { bsvalias: '1.0' as const, handle: paymail, pubkey: params.pubkey, match };
      },
    }),
    'POST /api/v1/bsvalias/p2p-payment-destination/:paymail': p2pRoute({
      rpc: ['p2p', 'createP2pDestination'],
      body: true,
      rateLimitPerMinute: destinationRateLimit,
      errors: ['not_found', 'unavailable'],
    }),
    'POST /api/v1/bsvalias/receive-transaction/:paymail': received(receiveBody, receiveTransactionExample),
    'POST /api/v1/bsvalias/beef/:paymail': received(beefBody, receiveBeefExample),
  };

  /** The organisation's identity key as p2p keeps it with its wallet (decision 0028); empty when none is registered. */
  async function identityKeyOf(organizationId: string, request: Parameters<typeof callOptions>[0]): Promise<string> {
    const { wallets } = await deps.services.p2p.getWallets({ organizationIds: [organizationId] }, callOptions(request));
    return wallets[0]?.identityPublicKey ?? '';
  }
}
