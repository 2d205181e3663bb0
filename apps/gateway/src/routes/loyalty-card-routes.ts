import { requireOrg, requireUser } from '../auth/authenticate.js';
import type { GatewayDeps } from '../deps.js';
import {
  heldLoyaltyCard,
  heldLoyaltyCardPage,
  issuedLoyaltyCard,
  loyaltyCardChange,
  loyaltyStampVerification,
  publicLoyaltyCard,
} from '../loyalty-cards/loyalty-card-answers.js';
import {
  identifierParams,
  joinLoyaltyProgramBody,
  joinLoyaltyProgramExample,
  loyaltyCardParams,
  newLoyaltyCard,
  newLoyaltyCardExample,
  redeemBody,
  redeemExample,
  stampBody,
  stampExample,
  stampTxidParams,
  transferBody,
  transferExample,
} from '../loyalty-cards/loyalty-card-input.js';
import {
  heldLoyaltyCardView,
  issuedLoyaltyCardView,
  loyaltyActivityView,
  loyaltyCardView,
  publicLoyaltyCardView,
  stampVerificationView,
} from '../loyalty-cards/loyalty-card-view.js';
import { joinLoyaltyProgram } from '../loyalty-cards/join-loyalty-program.js';
import { pageQuery } from './pagination.js';
import { route, type RouteDefinition } from './route-definition.js';
import { callOptions, orgRef } from './service-call.js';

/** A holder as pos takes it: an address or a public key (a staff route never names a user). */
const holderOf = (holder: { address?: string | undefined; public_key?: string | undefined } | undefined) => ({
  address: holder?.address ?? '',
  publicKey: holder?.public_key ?? '',
  userId: '',
});

/**
 * Loyalty cards, served by pos (decision 0017, "Loyalty"): staff issue, stamp, redeem and transfer the
 * organisation's cards (`org_handle` in the body); a customer takes their own card and lists theirs;
 * anyone reads a card's standing by id or identifier, and verifies a stamp from the txid that paid its
 * order, each public route under its own per-address limit. The create routes do not take Idempotency-Key:
 * their answer carries the card's identifier, which the gateway does not keep; a card per holder is unique anyway.
 */
export function loyaltyCardRoutes(deps: GatewayDeps): Record<string, RouteDefinition> {
  const publicLimit = deps.config.CTK_CARD_LOOKUP_RATE_LIMIT_PER_MINUTE;
  const pos = deps.services.pos;
  return {
    'POST /api/pos/loyalty-cards': route({
      body: newLoyaltyCard,
      bodyExample: newLoyaltyCardExample,
      status: 201,
      answer: issuedLoyaltyCard,
      errors: ['failed_precondition', 'already_exists'],
      handle: async ({ body, request }) => {
        const response = await pos.createLoyaltyCard(
          { org: orgRef(requireOrg(request)), holder: holderOf(body.holder) },
          callOptions(request),
        );
        return issuedLoyaltyCardView(response.card);
      },
    }),
    'GET /api/pos/loyalty-cards/lookup/:identifier': route({
      rateLimitPerMinute: publicLimit,
      params: identifierParams,
      answer: publicLoyaltyCard,
      errors: ['not_found'],
      handle: async ({ params, request, reply }) => {
        // The stamps change with each visit.
        reply.header('cache-control', 'no-store');
        return publicLoyaltyCardView((await pos.getLoyaltyCard({ id: '', identifier: params.identifier }, callOptions(request))).card);
      },
    }),
    'GET /api/pos/loyalty-cards/:id': route({
      rateLimitPerMinute: publicLimit,
      params: loyaltyCardParams,
      answer: publicLoyaltyCard,
      errors: ['not_found'],
      handle: async ({ params, request, reply }) => {
        reply.header('cache-control', 'no-store');
        return publicLoyaltyCardView((await pos.getLoyaltyCard({ id: params.id, identifier: '' }, callOptions(request))).card);
      },
    }),
    'POST /api/pos/loyalty-cards/:id/stamp': route({
      params: loyaltyCardParams,
      body: stampBody,
      bodyExample: stampExample,
      answer: loyaltyCardChange,
      errors: ['not_found', 'failed_precondition', 'already_stamped'],
      handle: async ({ params, body, request }) => {
        const response = await pos.stampLoyaltyCard(
          { org: orgRef(requireOrg(request)), id: params.id, orderNumber: body.order_number },
          callOptions(request),
        );
        return { card: loyaltyCardView(response.card), activity: loyaltyActivityView(response.activity) };
      },
    }),
    'POST /api/pos/loyalty-cards/:id/redeem': route({
      params: loyaltyCardParams,
      body: redeemBody,
      bodyExample: redeemExample,
      answer: loyaltyCardChange,
      errors: ['not_found', 'not_enough_stamps'],
      handle: async ({ params, body, request }) => {
        const response = await pos.redeemLoyaltyCard(
          { org: orgRef(requireOrg(request)), id: params.id, identifier: body.identifier },
          callOptions(request),
        );
        return { card: loyaltyCardView(response.card), activity: loyaltyActivityView(response.activity) };
      },
    }),
    'POST /api/pos/loyalty-cards/:id/transfer': route({
      params: loyaltyCardParams,
      body: transferBody,
      bodyExample: transferExample,
      answer: issuedLoyaltyCard,
      errors: ['not_found', 'already_exists'],
      handle: async ({ params, body, request }) => {
        const to = body.to ? holderOf(body.to) : undefined;
        const response = await pos.transferLoyaltyCard({ org: orgRef(requireOrg(request)), id: params.id, to }, callOptions(request));
        return issuedLoyaltyCardView(response.card);
      },
    }),
    'GET /api/v1/wallet/loyalty-cards': route({
      user: true,
      query: pageQuery,
      answer: heldLoyaltyCardPage,
      handle: async ({ query, request }) => {
        const response = await pos.listHeldLoyaltyCards(
          { userId: requireUser(request).userId, limit: query.limit, cursor: query.cursor ?? '' },
          callOptions(request),
        );
        return { data: response.cards.map(heldLoyaltyCardView), next_cursor: response.nextCursor || null };
      },
    }),
    'POST /api/v1/loyalty-cards': route({
      user: true,
      body: joinLoyaltyProgramBody,
      bodyExample: joinLoyaltyProgramExample,
      status: 201,
      answer: heldLoyaltyCard,
      errors: ['not_found', 'failed_precondition', 'already_exists'],
      handle: async ({ body, request }) => heldLoyaltyCardView(await joinLoyaltyProgram(deps, request, body)),
    }),
    'GET /api/pos/loyalty-stamps/:txid': route({
      rateLimitPerMinute: publicLimit,
      params: stampTxidParams,
      answer: loyaltyStampVerification,
      errors: ['not_found', 'chain_unavailable'],
      handle: async ({ params, request }) =>
        // Reading the chain may take a few seconds.
        stampVerificationView(await pos.verifyStamp({ txid: params.txid }, { ...callOptions(request), timeoutMs: 30_000 })),
    }),
  };
}
