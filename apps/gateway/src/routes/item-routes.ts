import { requireOrg } from '../auth/authenticate.js';
import type { GatewayDeps } from '../deps.js';
import { pageQuery } from './pagination.js';
import { itemPage, item as itemAnswer } from '../items/item-answers.js';
import { itemView } from '../items/item-view.js';
import { newItemExample, orgParams, newItem } from '../items/item-input.js';
import { callOptions, orgRef } from './service-call.js';
import { route, type RouteDefinition } from './route-definition.js';

/** The organisation's items, served by the pos service. */
export function itemRoutes(deps: GatewayDeps): Record<string, RouteDefinition> {
  return {
    'POST /api/v1/orgs/:handle/items': route({
      params: orgParams,
      body: newItem,
      bodyExample: newItemExample,
      creates: true,
      status: 201,
      answer: itemAnswer,
      errors: ['already_exists'],
      handle: async ({ body, request }) => {
        const response = await deps.services.pos.createItem(
          {
            org: orgRef(requireOrg(request)),
            name: body.name,
            description: body.description ?? '',
            priceCents: BigInt(body.price_cents),
            currency: body.currency ?? '',
            category: body.category ?? '',
            sku: body.sku ?? '',
            available: body.available,
          },
          callOptions(request),
        );
        return itemView(response.item);
      },
    }),
    'GET /api/v1/orgs/:handle/items': route({
      params: orgParams,
      query: pageQuery,
      answer: itemPage,
      handle: async ({ query, request }) => {
        const response = await deps.services.pos.listItems(
          { org: orgRef(requireOrg(request)), limit: query.limit, cursor: query.cursor ?? '' },
          callOptions(request),
        );
        return { data: response.items.map(itemView), next_cursor: response.nextCursor || null };
      },
    }),
  };
}
