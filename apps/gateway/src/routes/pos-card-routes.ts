import { z } from 'zod';
import { messageDesc } from '../contract/contract-registry.js';
import { toJson } from '../contract/json-mapping.js';
import { messageSchema } from '../contract/message-schema.js';
import type { GatewayDeps } from '../deps.js';
import { route, type RouteDefinition } from './route-definition.js';
import { callOptions } from './service-call.js';

/**
 * A POS card by id (docs/decisions/0017-customer-cards.md), by hand: the answer is the one card of pos's
 * list, in its public view (decision 0024). The other POS card routes are declared in the contract.
 */
export function posCardRoutes(deps: GatewayDeps): Record<string, RouteDefinition> {
  const publicCard = messageDesc('ctk.pos.v1.PublicPosCard');
  return {
    'GET /api/pos/cards/:card_id': route({
      params: z.object({ card_id: z.uuid('must be a POS card id (a UUID)').describe('The POS card id') }),
      answer: messageSchema(publicCard, 'answer'),
      handle: async ({ params, request }) =>
        toJson(
          publicCard,
          (await deps.services.pos.getPosCard({ id: params.card_id, address: '' }, callOptions(request))).cards[0] as never,
        ),
    }),
  };
}
