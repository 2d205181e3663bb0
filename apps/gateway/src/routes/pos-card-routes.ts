import { z } from 'zod';
import { messageDesc } from '../contract/contract-registry.js';
import { toJson } from '../contract/json-mapping.js';
import { messageSchema } from '../contract/message-schema.js';
import { rpcRoute } from '../contract/rpc-route.js';
import type { GatewayDeps } from '../deps.js';
import { handleField } from '../identity/organization-fields.js';
import { pageQuery } from './pagination.js';
import { route, type RouteDefinition } from './route-definition.js';
import { callOptions } from './service-call.js';

const cardParams = z.object({ card_id: z.uuid('must be a POS card id (a UUID)').describe('The POS card id') });
const addressParams = z.object({
  address: z.string().max(100).describe("The customer's P2PKH address on this chain's network, or the compressed public key it came from"),
});
const shopParams = z.object({ shop_id: handleField.describe("The shop: its organisation's handle") });

/**
 * POS cards, served by pos (docs/decisions/0017-customer-cards.md, "Shops" and "POS cards"): staff make a
 * customer's card at their shop from the customer's address (the same address again answers the same
 * card) and list the shop's cards, and see what an address holds at their shop (with or without its POS
 * card); anyone reads a card by id, or an address's cards, without the label and without what it holds
 * (docs/decisions/0024-proof-holds-and-privacy.md). Each route shows the view of the card its reader may see (cards.proto, "Views").
 * The shop is the organisation: `org_handle` in the body, or `:shop_id` (its handle) in the path.
 */
export function posCardRoutes(deps: GatewayDeps): Record<string, RouteDefinition> {
  const publicCard = messageDesc('ctk.pos.v1.PublicPosCard');
  const made = rpcRoute(deps.services, {
    rpc: ['pos', 'createPosCard'],
    body: true,
    orgHandle: 'The shop the card is at',
    creates: true,
    status: 201,
    alsoStatus: 200,
    answer: 'card',
    view: 'ctk.pos.v1.CreatedPosCard',
    // The card with whether it is new: the one the address already had is 200.
    after: (json, { reply }, response) => {
      json.created = response.created;
      if (!response.created) reply.code(200);
    },
  });
  return {
    'POST /api/pos/cards': made,
    // By hand: the answer is the one card of pos's list.
    'GET /api/pos/cards/:card_id': route({
      params: cardParams,
      answer: messageSchema(publicCard, 'answer'),
      handle: async ({ params, request }) =>
        toJson(
          publicCard,
          (await deps.services.pos.getPosCard({ id: params.card_id, address: '' }, callOptions(request))).cards[0] as never,
        ),
    }),
    'GET /api/pos/cards/address/:address': rpcRoute(deps.services, {
      rpc: ['pos', 'getPosCard'],
      params: addressParams,
      view: 'ctk.pos.v1.PosCardsOfAddress',
    }),
    'GET /api/pos/shops/:shop_id/cards/address/:address': rpcRoute(deps.services, {
      rpc: ['pos', 'getShopAddressCards'],
      params: shopParams.extend(addressParams.shape),
      view: 'ctk.pos.v1.ShopAddressCards',
    }),
    'GET /api/pos/shops/:shop_id/cards': rpcRoute(deps.services, {
      rpc: ['pos', 'listShopCards'],
      params: shopParams,
      query: pageQuery,
      answer: { page: 'cards' },
      view: 'ctk.pos.v1.StaffPosCard',
    }),
  };
}
