import { requireOrg } from '../auth/authenticate.js';
import type { GatewayDeps } from '../deps.js';
import { createdPosCard, posCardPage, posCardsOfAddress, publicPosCard, shopAddressCards } from '../pos-cards/pos-card-answers.js';
import { addressParams, newPosCard, newPosCardExample, posCardParams, shopAddressParams, shopParams } from '../pos-cards/pos-card-input.js';
import { posCardView, publicPosCardView, shopAddressCardsView } from '../pos-cards/pos-card-view.js';
import { pageQuery } from './pagination.js';
import { route, type RouteDefinition } from './route-definition.js';
import { callOptions, orgRef } from './service-call.js';

/**
 * POS cards, served by pos (docs/decisions/0017-customer-cards.md, "Shops" and "POS cards"): staff make a
 * customer's card at their shop from the customer's address (the same address again answers the same
 * card) and list the shop's cards, and see what an address holds at their shop (with or without its POS
 * card); anyone reads a card by id, or an address's cards, without the label and without what it holds
 * (docs/decisions/0024-proof-holds-and-privacy.md).
 * The shop is the organisation: `org_handle` in the body, or `:shop_id` (its handle) in the path.
 */
export function posCardRoutes(deps: GatewayDeps): Record<string, RouteDefinition> {
  return {
    'POST /api/pos/cards': route({
      body: newPosCard,
      bodyExample: newPosCardExample,
      creates: true,
      status: 201,
      alsoStatus: 200,
      answer: createdPosCard,
      handle: async ({ body, request, reply }) => {
        const response = await deps.services.pos.createPosCard(
          {
            org: orgRef(requireOrg(request)),
            holder: { address: body.holder.address ?? '', publicKey: body.holder.public_key ?? '', userId: '' },
            label: body.label ?? '',
          },
          callOptions(request),
        );
        if (!response.created) reply.code(200);
        return { ...posCardView(response.card), created: response.created };
      },
    }),
    'GET /api/pos/cards/:card_id': route({
      params: posCardParams,
      answer: publicPosCard,
      handle: async ({ params, request }) =>
        publicPosCardView((await deps.services.pos.getPosCard({ id: params.card_id, address: '' }, callOptions(request))).cards[0]),
    }),
    'GET /api/pos/cards/address/:address': route({
      params: addressParams,
      answer: posCardsOfAddress,
      handle: async ({ params, request }) => {
        const { cards } = await deps.services.pos.getPosCard({ id: '', address: params.address }, callOptions(request));
        return { data: cards.map(publicPosCardView) };
      },
    }),
    'GET /api/pos/shops/:shop_id/cards/address/:address': route({
      params: shopAddressParams,
      answer: shopAddressCards,
      handle: async ({ params, request }) => {
        const org = requireOrg(request);
        const response = await deps.services.pos.getShopAddressCards({ org: orgRef(org), address: params.address }, callOptions(request));
        return shopAddressCardsView(org.handle, response);
      },
    }),
    'GET /api/pos/shops/:shop_id/cards': route({
      params: shopParams,
      query: pageQuery,
      answer: posCardPage,
      handle: async ({ query, request }) => {
        const response = await deps.services.pos.listShopCards(
          { org: orgRef(requireOrg(request)), limit: query.limit, cursor: query.cursor ?? '' },
          callOptions(request),
        );
        return { data: response.cards.map(posCardView), next_cursor: response.nextCursor || null };
      },
    }),
  };
}
