import { z } from 'zod';
import { requireUser } from '../auth/authenticate.js';
import { messageAnswer } from '../contract/message-answer.js';
import { rpcRoute } from '../contract/rpc-route.js';
import type { GatewayDeps } from '../deps.js';
import { clientAddress } from '../plugins/rate-limits.js';
import { purchasePrepaidCard, purchasePrepaidCardBody } from '../prepaid-cards/purchase-prepaid-card.js';
import { pageQuery } from './pagination.js';
import { route, type AnswerSecret, type RouteDefinition } from './route-definition.js';
import { callOptions } from './service-call.js';

/** The identifier an answer carries in full: sealed in idempotent replays, never cached. */
const IDENTIFIER: AnswerSecret[] = [{ path: ['card', 'identifier'], kind: 'card_identifier' }];
const cardParams = z.object({ id: z.uuid('must be a prepaid card id (a UUID)').describe('The prepaid card id') });
const identifierParams = z.object({
  identifier: z
    .string()
    .max(64)
    .describe('The card identifier as printed, XXXX-XXXX-XXXX-XXXX (dashes, spaces and case are ignored; I, L and O read as 1, 1 and 0)'),
});
/** A balance changes with each use: a public read is never from a shared cache. */
const noStore = (_: unknown, { reply }: { reply: { header(name: string, value: string): unknown } }) =>
  reply.header('cache-control', 'no-store');
const ORG = 'The organisation whose card this is';
const ISSUED = messageAnswer('ctk.pos.v1.IssuedPrepaidCard');

/**
 * Prepaid and gift cards, served by pos (decision 0017): staff issue, use and transfer them (the
 * organisation is `org_handle` in the body; another organisation's card is not found); any customer buys
 * one and lists their own; anyone reads a card's status and balance by its id or identifier, under a
 * per-address limit (an identifier lookup must not be a guessing oracle). pos answers the whole card; a
 * public read shows its public view (cards.proto, "Views").
 */
export function prepaidCardRoutes(deps: GatewayDeps): Record<string, RouteDefinition> {
  const services = deps.services;
  const publicUrl = deps.config.CTK_PUBLIC_URL;
  const publicCard = {
    rateLimitPerMinute: deps.config.CTK_CARD_LOOKUP_RATE_LIMIT_PER_MINUTE,
    rpc: ['pos', 'getPrepaidCard'] as const,
    answer: 'card',
    view: 'ctk.pos.v1.PublicPrepaidCard',
    after: noStore,
    errors: ['not_found' as const],
  };
  return {
    'POST /api/pos/prepaid-cards': rpcRoute(services, {
      rpc: ['pos', 'issuePrepaidCard'],
      body: true,
      orgHandle: 'The organisation issuing the card',
      // Staff issue it: its order may use the addresses kept for staff (decision 0022).
      fill: {
        fields: [],
        from: ({ request }) => ({ publicUrl, createdBy: request.caller.kind === 'user' ? request.caller.userId : '', staff: true }),
      },
      creates: true,
      status: 201,
      secrets: IDENTIFIER,
      view: 'ctk.pos.v1.IssuedPrepaidCard',
    }),
    // By hand: the gateway decides who holds a bought card (the caller, or for a gift `to` or nobody).
    'POST /api/v1/prepaid-cards/purchase': route({
      user: true,
      body: purchasePrepaidCardBody,
      bodyExample: { org_handle: 'blue-bottle-cafe', amount_minor: 5000, gift: true } as never,
      creates: true,
      status: 201,
      secrets: IDENTIFIER,
      answer: ISSUED.schema,
      errors: ['not_found'],
      handle: async ({ body, request }) =>
        ISSUED.json(
          await purchasePrepaidCard(
            deps,
            body,
            { userId: requireUser(request).userId, clientAddress: clientAddress(request) },
            callOptions(request),
          ),
        ),
    }),
    'GET /api/pos/prepaid-cards/lookup/:identifier': rpcRoute(services, { ...publicCard, params: identifierParams }),
    'GET /api/pos/prepaid-cards/:id': rpcRoute(services, { ...publicCard, params: cardParams }),
    'POST /api/pos/prepaid-cards/:id/use': rpcRoute(services, {
      rpc: ['pos', 'usePrepaidCard'],
      params: cardParams,
      body: true,
      orgHandle: 'The organisation whose card and order these are',
      fill: { fields: [], from: () => ({ publicUrl }) },
      view: 'ctk.pos.v1.PrepaidCardUse',
      errors: ['not_found', 'card_not_active', 'insufficient_balance', 'failed_precondition'],
    }),
    'POST /api/pos/prepaid-cards/:id/transfer': rpcRoute(services, {
      rpc: ['pos', 'transferPrepaidCard'],
      params: cardParams,
      body: true,
      orgHandle: ORG,
      secrets: [{ path: ['identifier'], kind: 'card_identifier' }],
      answer: 'card',
      errors: ['not_found', 'card_not_active'],
    }),
    'GET /api/v1/wallet/prepaid-cards': rpcRoute(services, {
      rpc: ['pos', 'listHeldPrepaidCards'],
      user: true,
      query: pageQuery,
      fill: { fields: ['user_id'], from: ({ request }) => ({ userId: requireUser(request).userId }) },
      answer: { page: 'cards' },
    }),
  };
}
