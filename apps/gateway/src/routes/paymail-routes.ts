import { AppError, type ErrorCode } from '@ctk/shared';
import { z } from 'zod';
import type { GatewayDeps } from '../deps.js';
import { paymailDomain } from '../paymail/paymail-domain.js';
import { getPublicProfile } from '../paymail/get-public-profile.js';
import { resolvePaymail, type PaymailTarget } from '../paymail/paymail-target.js';
import { bsvaliasCapabilities, paymailPki, publicProfile, verifiedPubkey } from '../paymail/paymail-answers.js';
import { messageDesc } from '../contract/contract-registry.js';
import { toJson } from '../contract/json-mapping.js';
import { messageSchema } from '../contract/message-schema.js';
import { rpcRoute } from '../contract/rpc-route.js';
import { callOptions, orgRef } from './service-call.js';
import {
  beefBody,
  metadata,
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

/** p2p's answers, in the contract's JSON (decision 0026). */
const DESTINATION = messageDesc('ctk.p2p.v1.GetPaymentDestinationResponse');
const RECEIVED = messageDesc('ctk.p2p.v1.ReceiveP2pTransactionResponse');

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
  /** A route that is one RPC of p2p for the paymail in the path. */
  const toP2p = {
    bsvalias: true,
    params: paymailParams,
    fill: {
      fields: ['target'],
      from: async ({ params }: { params: Record<string, unknown> }) => ({ target: forP2p(await target(params.paymail as string)) }),
    },
  };
  return {
    'GET /.well-known/bsvalias': route({
      bsvalias: true,
      answer: bsvaliasCapabilities,
      handle: async () => ({
        bsvalias: '1.0' as const,
        capabilities: {
          pki: `${base}/api/v1/bsvalias/id/{alias}@{domain.tld}`,
          paymentDestination: `${base}/api/v1/bsvalias/address/{alias}@{domain.tld}`,
          f12f968c92d6: `${base}/api/v1/bsvalias/public-profile/{alias}@{domain.tld}`,
          a9f510c16bde: `${base}/api/v1/bsvalias/verifypubkey/{alias}@{domain.tld}/{pubkey}`,
          '2a40af698840': `${base}/api/v1/bsvalias/p2p-payment-destination/{alias}@{domain.tld}`,
          '5f1323cddf31': `${base}/api/v1/bsvalias/receive-transaction/{alias}@{domain.tld}`,
          '5c55a7fdb7bb': `${base}/api/v1/bsvalias/beef/{alias}@{domain.tld}`,
          // Sender validation: senders may sign, and a signature sent is checked, but none is required.
          '6745385c3fc0': false,
        },
      }),
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
    'GET /api/v1/bsvalias/address/:paymail': rpcRoute(deps.services, {
      rpc: ['p2p', 'getPaymentDestination'],
      ...toP2p,
      rateLimitPerMinute: destinationRateLimit,
      errors: ['not_found', 'unavailable'],
    }),
    'POST /api/v1/bsvalias/address/:paymail': route({
      bsvalias: true,
      rateLimitPerMinute: destinationRateLimit,
      params: paymailParams,
      body: senderRequest,
      bodyExample: senderRequestExample,
      answer: messageSchema(DESTINATION, 'answer'),
      errors: ['not_found', 'invalid_signature', 'unavailable'],
      handle: async ({ params, body, request }) => {
        const resolved = await target(params.paymail);
        const answer = await deps.services.p2p.getPaymentDestination(
          {
            target: forP2p(resolved),
            senderRequest: true,
            senderName: body.senderName ?? '',
            senderHandle: body.senderHandle ?? '',
            dt: body.dt ?? '',
            amount: body.amount === undefined ? '' : String(body.amount),
            purpose: body.purpose ?? '',
            signature: body.signature ?? '',
          },
          callOptions(request),
        );
        return toJson(DESTINATION, { ...answer });
      },
    }),
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
    'POST /api/v1/bsvalias/p2p-payment-destination/:paymail': rpcRoute(deps.services, {
      rpc: ['p2p', 'createP2pDestination'],
      ...toP2p,
      body: true,
      rateLimitPerMinute: destinationRateLimit,
      errors: ['not_found', 'unavailable'],
    }),
    'POST /api/v1/bsvalias/receive-transaction/:paymail': route({
      bsvalias: true,
      params: paymailParams,
      body: receiveBody,
      bodyExample: receiveTransactionExample,
      answer: messageSchema(RECEIVED, 'answer'),
      errors: RECEIVE_ERRORS,
      handle: async ({ params, body, request }) => receive(await target(params.paymail), { hex: body.hex }, body, request),
    }),
    'POST /api/v1/bsvalias/beef/:paymail': route({
      bsvalias: true,
      params: paymailParams,
      body: beefBody,
      bodyExample: receiveBeefExample,
      answer: messageSchema(RECEIVED, 'answer'),
      errors: RECEIVE_ERRORS,
      handle: async ({ params, body, request }) => receive(await target(params.paymail), { beef: body.beef }, body, request),
    }),
  };

  /** The organisation's identity key as p2p keeps it with its wallet (decision 0028); empty when none is registered. */
  async function identityKeyOf(organizationId: string, request: Parameters<typeof callOptions>[0]): Promise<string> {
    const { wallets } = await deps.services.p2p.getWallets({ organizationIds: [organizationId] }, callOptions(request));
    return wallets[0]?.identityPublicKey ?? '';
  }

  async function receive(
    resolved: PaymailTarget,
    transaction: { hex?: string; beef?: string },
    body: { reference: string; metadata?: z.infer<typeof metadata> },
    request: Parameters<typeof callOptions>[0],
  ) {
    const answer = await deps.services.p2p.receiveP2pTransaction(
      {
        target: forP2p(resolved),
        reference: body.reference,
        ...transaction,
        sender: body.metadata?.sender ?? '',
        pubkey: body.metadata?.pubkey ?? '',
        signature: body.metadata?.signature ?? '',
        note: body.metadata?.note ?? '',
      },
      callOptions(request),
    );
    return toJson(RECEIVED, { ...answer });
  }
}
