import { z } from 'zod';
import { requireUser } from '../auth/authenticate.js';
import { messageAnswer } from '../contract/message-answer.js';
import { rpcRoute } from '../contract/rpc-route.js';
import type { GatewayDeps } from '../deps.js';
import { joinLoyaltyProgram, joinLoyaltyProgramBody } from '../loyalty-cards/join-loyalty-program.js';
import { pageQuery } from './pagination.js';
import { route, type RouteDefinition } from './route-definition.js';

const cardParams = z.object({ id: z.uuid('must be a loyalty card id (a UUID)').describe('The loyalty card id') });
const identifierParams = z.object({
  identifier: z
    .string()
    .min(1)
    .max(40)
    .describe("The card's identifier as printed or scanned, XXXX-XXXX-XXXX-XXXX (dashes, spaces and case ignored)"),
});
const txidParams = z.object({
  txid: z
    .string()
    .regex(/^[0-9a-fA-F]{64}$/, 'must be 64 hexadecimal characters')
    .describe('The transaction that paid the stamped order'),
});
const ORG = 'The organisation whose card this is';
/** The stamps change with each visit: a public read is never from a shared cache. */
const noStore = (_: unknown, { reply }: { reply: { header(name: string, value: string): unknown } }) =>
  reply.header('cache-control', 'no-store');

/**
 * Loyalty cards, served by pos (decision 0017, "Loyalty"): staff issue, stamp, redeem and transfer the
 * organisation's cards (`org_handle` in the body); a customer takes their own card and lists theirs;
 * anyone reads a card's standing by id or identifier, and verifies a stamp from the txid that paid its
 * order, each public route under its own per-address limit. The create routes do not take Idempotency-Key:
 * their answer carries the card's identifier, which the gateway does not keep; a card per holder is unique anyway.
 * pos answers the whole card; each route shows the view of it its reader may see (cards.proto, "Views").
 */
export function loyaltyCardRoutes(deps: GatewayDeps): Record<string, RouteDefinition> {
  const services = deps.services;
  const publicRead = { rateLimitPerMinute: deps.config.CTK_CARD_LOOKUP_RATE_LIMIT_PER_MINUTE };
  const publicCard = {
    ...publicRead,
    rpc: ['pos', 'getLoyaltyCard'] as const,
    answer: 'card',
    view: 'ctk.pos.v1.PublicLoyaltyCard',
    after: noStore,
    errors: ['not_found' as const],
  };
  const held = messageAnswer('ctk.pos.v1.HeldLoyaltyCard');
  return {
    'POST /api/pos/loyalty-cards': rpcRoute(services, {
      rpc: ['pos', 'createLoyaltyCard'],
      body: true,
      orgHandle: 'The organisation that issues the card',
      status: 201,
      answer: 'card',
      view: 'ctk.pos.v1.IssuedLoyaltyCard',
      errors: ['failed_precondition', 'already_exists'],
    }),
    'GET /api/pos/loyalty-cards/lookup/:identifier': rpcRoute(services, { ...publicCard, params: identifierParams }),
    'GET /api/pos/loyalty-cards/:id': rpcRoute(services, { ...publicCard, params: cardParams }),
    'POST /api/pos/loyalty-cards/:id/stamp': rpcRoute(services, {
      rpc: ['pos', 'stampLoyaltyCard'],
      params: cardParams,
      body: true,
      orgHandle: ORG,
      view: 'ctk.pos.v1.LoyaltyCardChange',
      errors: ['not_found', 'failed_precondition', 'already_stamped'],
    }),
    'POST /api/pos/loyalty-cards/:id/redeem': rpcRoute(services, {
      rpc: ['pos', 'redeemLoyaltyCard'],
      params: cardParams,
      body: true,
      orgHandle: ORG,
      view: 'ctk.pos.v1.LoyaltyCardChange',
      errors: ['not_found', 'not_enough_stamps'],
    }),
    'POST /api/pos/loyalty-cards/:id/transfer': rpcRoute(services, {
      rpc: ['pos', 'transferLoyaltyCard'],
      params: cardParams,
      body: true,
      orgHandle: ORG,
      answer: 'card',
      view: 'ctk.pos.v1.IssuedLoyaltyCard',
      errors: ['not_found', 'already_exists'],
    }),
    'GET /api/v1/wallet/loyalty-cards': rpcRoute(services, {
      rpc: ['pos', 'listHeldLoyaltyCards'],
      user: true,
      query: pageQuery,
      fill: { fields: ['user_id'], from: ({ request }) => ({ userId: requireUser(request).userId }) },
      answer: { page: 'cards' },
      view: 'ctk.pos.v1.HeldLoyaltyCard',
    }),
    // By hand: the gateway checks the caller's proof of a key (decision 0024) before pos makes the card.
    'POST /api/v1/loyalty-cards': route({
      user: true,
      body: joinLoyaltyProgramBody,
      bodyExample: { org_handle: 'blue-bottle-cafe' },
      status: 201,
      answer: held.schema,
      errors: ['not_found', 'failed_precondition', 'already_exists'],
      handle: async ({ body, request }) => held.json((await joinLoyaltyProgram(deps, request, body))!),
    }),
    'GET /api/pos/loyalty-stamps/:txid': rpcRoute(services, {
      ...publicRead,
      rpc: ['pos', 'verifyStamp'],
      params: txidParams,
      errors: ['not_found', 'chain_unavailable'],
      // Reading the chain may take a few seconds.
      timeoutMs: 30_000,
    }),
  };
}
