import { requireOrg, requireUser } from '../auth/authenticate.js';
import type { GatewayDeps } from '../deps.js';
import { orderView } from '../orders/order-view.js';
import {
  issuedPrepaidCard,
  prepaidCard,
  prepaidCardPage,
  prepaidCardUse,
  publicPrepaidCard,
} from '../prepaid-cards/prepaid-card-answers.js';
import {
  identifierParams,
  issuePrepaidCardBody,
  issuePrepaidCardExample,
  prepaidCardParams,
  purchasePrepaidCardBody,
  purchasePrepaidCardExample,
  transferPrepaidCardBody,
  transferPrepaidCardExample,
  usePrepaidCardBody,
  usePrepaidCardExample,
} from '../prepaid-cards/prepaid-card-input.js';
import { activityView, holderPrepaidCardView, publicPrepaidCardView, staffPrepaidCardView } from '../prepaid-cards/prepaid-card-view.js';
import { purchasePrepaidCard } from '../prepaid-cards/purchase-prepaid-card.js';
import { pageQuery } from './pagination.js';
import { route, type AnswerSecret, type RouteDefinition } from './route-definition.js';
import { callOptions, orgRef } from './service-call.js';

/** The identifier an answer carries in full: sealed in idempotent replays, never cached. */
const IDENTIFIER: AnswerSecret[] = [{ path: ['card', 'identifier'], kind: 'card_identifier' }];
const holderOf = (holder: { address?: string | undefined; public_key?: string | undefined } | undefined) => ({
  address: holder?.address ?? '',
  publicKey: holder?.public_key ?? '',
  userId: '',
});

/**
 * Prepaid and gift cards, served by pos (decision 0017): staff issue, use and transfer them (the
 * organisation is `org_handle` in the body; another organisation's card is not found); any customer buys
 * one and lists their own; anyone reads a card's status and balance by its id or identifier, under a
 * per-address limit (an identifier lookup must not be a guessing oracle).
 */
export function prepaidCardRoutes(deps: GatewayDeps): Record<string, RouteDefinition> {
  const publicUrl = deps.config.CTK_PUBLIC_URL;
  const lookupLimit = deps.config.CTK_CARD_LOOKUP_RATE_LIMIT_PER_MINUTE;
  return {
    'POST /api/pos/prepaid-cards': route({
      body: issuePrepaidCardBody,
      bodyExample: issuePrepaidCardExample,
      creates: true,
      status: 201,
      secrets: IDENTIFIER,
      answer: issuedPrepaidCard,
      handle: async ({ body, request }) => {
        const response = await deps.services.pos.issuePrepaidCard(
          {
            org: orgRef(requireOrg(request)),
            amountMinor: BigInt(body.amount_minor),
            currency: body.currency ?? '',
            holder: holderOf(body.holder),
            publicUrl,
            createdBy: request.caller.kind === 'user' ? request.caller.userId : '',
            // Staff issue it: its order may use the addresses kept for staff (decision 0022).
            staff: true,
          },
          callOptions(request),
        );
        return { card: staffPrepaidCardView(response.card), order: orderView(response.order) };
      },
    }),
    'POST /api/v1/prepaid-cards/purchase': route({
      user: true,
      body: purchasePrepaidCardBody,
      bodyExample: purchasePrepaidCardExample,
      creates: true,
      status: 201,
      secrets: IDENTIFIER,
      answer: issuedPrepaidCard,
      errors: ['not_found'],
      handle: async ({ body, request }) => {
        const response = await purchasePrepaidCard(
          deps,
          {
            orgHandle: body.org_handle,
            amountMinor: BigInt(body.amount_minor),
            currency: body.currency ?? '',
            gift: body.gift ?? false,
            to: body.to && holderOf(body.to),
            userId: requireUser(request).userId,
          },
          callOptions(request),
        );
        return { card: holderPrepaidCardView(response.card), order: orderView(response.order) };
      },
    }),
    'GET /api/pos/prepaid-cards/lookup/:identifier': route({
      rateLimitPerMinute: lookupLimit,
      params: identifierParams,
      answer: publicPrepaidCard,
      errors: ['not_found'],
      handle: async ({ params, request, reply }) => {
        // A balance changes with each use: never from a shared cache.
        reply.header('cache-control', 'no-store');
        return publicPrepaidCardView(
          (await deps.services.pos.getPrepaidCard({ identifier: params.identifier }, callOptions(request))).card,
        );
      },
    }),
    'GET /api/pos/prepaid-cards/:id': route({
      rateLimitPerMinute: lookupLimit,
      params: prepaidCardParams,
      answer: publicPrepaidCard,
      errors: ['not_found'],
      handle: async ({ params, request, reply }) => {
        reply.header('cache-control', 'no-store');
        return publicPrepaidCardView((await deps.services.pos.getPrepaidCard({ id: params.id }, callOptions(request))).card);
      },
    }),
    'POST /api/pos/prepaid-cards/:id/use': route({
      params: prepaidCardParams,
      body: usePrepaidCardBody,
      bodyExample: usePrepaidCardExample,
      answer: prepaidCardUse,
      errors: ['not_found', 'card_not_active', 'insufficient_balance', 'failed_precondition'],
      handle: async ({ params, body, request }) => {
        const response = await deps.services.pos.usePrepaidCard(
          {
            org: orgRef(requireOrg(request)),
            id: params.id,
            identifier: body.identifier,
            orderNumber: body.order_number,
            amountMinor: BigInt(body.amount_minor ?? 0),
            publicUrl,
          },
          callOptions(request),
        );
        return { card: staffPrepaidCardView(response.card), order: orderView(response.order), activity: activityView(response.activity) };
      },
    }),
    'POST /api/pos/prepaid-cards/:id/transfer': route({
      params: prepaidCardParams,
      body: transferPrepaidCardBody,
      bodyExample: transferPrepaidCardExample,
      secrets: [{ path: ['identifier'], kind: 'card_identifier' }],
      answer: prepaidCard,
      errors: ['not_found', 'card_not_active'],
      handle: async ({ params, body, request }) => {
        const response = await deps.services.pos.transferPrepaidCard(
          { org: orgRef(requireOrg(request)), id: params.id, to: holderOf(body.to) },
          callOptions(request),
        );
        return staffPrepaidCardView(response.card);
      },
    }),
    'GET /api/v1/wallet/prepaid-cards': route({
      user: true,
      query: pageQuery,
      answer: prepaidCardPage,
      handle: async ({ query, request }) => {
        const response = await deps.services.pos.listHeldPrepaidCards(
          { userId: requireUser(request).userId, limit: query.limit, cursor: query.cursor ?? '' },
          callOptions(request),
        );
        return { data: response.cards.map(holderPrepaidCardView), next_cursor: response.nextCursor || null };
      },
    }),
  };
}
