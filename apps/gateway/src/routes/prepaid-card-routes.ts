import { z } from 'zod';
import { requireOrg, requireUser } from '../auth/authenticate.js';
import { exampleOf as contractExample, messageDesc } from '../contract/contract-registry.js';
import { fromJson, toJson } from '../contract/json-mapping.js';
import { messageSchema } from '../contract/message-schema.js';
import { rpcRoute } from '../contract/rpc-route.js';
import type { GatewayDeps } from '../deps.js';
import { handleField } from '../identity/organization-fields.js';
import { order } from '../orders/order-answers.js';
import { orderView } from '../orders/order-view.js';
import { purchasePrepaidCard, purchasePrepaidCardBody } from '../prepaid-cards/purchase-prepaid-card.js';
import { exampleOf, named } from './answer-schema.js';
import { pageQuery } from './pagination.js';
import { route, type AnswerSecret, type RouteDefinition } from './route-definition.js';
import { callOptions, orgRef } from './service-call.js';

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

const prepaidCard = messageDesc('ctk.pos.v1.PrepaidCard');
const card = messageSchema(prepaidCard, 'answer') as z.ZodType<Record<string, unknown>>;
const activity = messageDesc('ctk.pos.v1.PrepaidActivity');
/** The answers that carry an order: the order is the orders routes' JSON (orders/order-view.ts). */
const issuedPrepaidCard = named(
  'IssuedPrepaidCard',
  z.object({ card, order: order.describe('The order that sells the card: pay it and the card is active') }),
  {
    card: { ...exampleOf(card), status: 'pending', balance_minor: 0, activated_at: null, activities: [] },
    order: { ...exampleOf(order), order_number: 'H3D8K2M9PQ' },
  },
);
const prepaidCardUse = named(
  'PrepaidCardUse',
  z.object({
    card,
    order: order.describe('The order after the use: its satoshis due are for the rest; paid when the card covered it'),
    activity: (messageSchema(activity, 'answer') as z.ZodType<Record<string, unknown>>).describe(
      'The use, as the card’s ledger records it',
    ),
  }),
  {
    card: { ...exampleOf(card), identifier: null },
    order: { ...exampleOf(order), card_paid_minor: 650 },
    activity: contractExample(activity) as Record<string, unknown>,
  },
);

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
  // By hand where the answer carries an order (the orders routes' JSON); the requests are the contract's.
  const [issue, use] = ['IssuePrepaidCardRequest', 'UsePrepaidCardRequest'].map((name) => messageDesc(`ctk.pos.v1.${name}`)) as [
    ReturnType<typeof messageDesc>,
    ReturnType<typeof messageDesc>,
  ];
  const body = (desc: typeof issue, description: string) =>
    (messageSchema(desc, 'request', ['org', 'id']) as z.ZodObject).extend({ org_handle: handleField.describe(description) });
  return {
    'POST /api/pos/prepaid-cards': route({
      body: body(issue, 'The organisation issuing the card'),
      bodyExample: contractExample(issue) as never,
      creates: true,
      status: 201,
      secrets: IDENTIFIER,
      answer: issuedPrepaidCard,
      handle: async ({ body: json, request }) => {
        const response = await services.pos.issuePrepaidCard(
          {
            ...fromJson(issue, json),
            org: orgRef(requireOrg(request)),
            publicUrl,
            createdBy: request.caller.kind === 'user' ? request.caller.userId : '',
            // Staff issue it: its order may use the addresses kept for staff (decision 0022).
            staff: true,
          } as never,
          callOptions(request),
        );
        return { card: toJson(prepaidCard, response.card as never), order: orderView(response.order) };
      },
    }),
    'POST /api/v1/prepaid-cards/purchase': route({
      user: true,
      body: purchasePrepaidCardBody,
      bodyExample: { org_handle: 'blue-bottle-cafe', amount_minor: 5000, gift: true },
      creates: true,
      status: 201,
      secrets: IDENTIFIER,
      answer: issuedPrepaidCard,
      errors: ['not_found'],
      handle: async ({ body, request }) => {
        const response = await purchasePrepaidCard(deps, body, requireUser(request).userId, callOptions(request));
        return { card: toJson(prepaidCard, response.card as never), order: orderView(response.order) };
      },
    }),
    'GET /api/pos/prepaid-cards/lookup/:identifier': rpcRoute(services, { ...publicCard, params: identifierParams }),
    'GET /api/pos/prepaid-cards/:id': rpcRoute(services, { ...publicCard, params: cardParams }),
    'POST /api/pos/prepaid-cards/:id/use': route({
      params: cardParams,
      body: body(use, 'The organisation whose card and order these are'),
      bodyExample: contractExample(use) as never,
      answer: prepaidCardUse,
      errors: ['not_found', 'card_not_active', 'insufficient_balance', 'failed_precondition'],
      handle: async ({ params, body: json, request }) => {
        const response = await services.pos.usePrepaidCard(
          { ...fromJson(use, json), org: orgRef(requireOrg(request)), id: params.id, publicUrl } as never,
          callOptions(request),
        );
        return {
          card: toJson(prepaidCard, response.card as never),
          order: orderView(response.order),
          activity: toJson(activity, response.activity as never),
        };
      },
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
