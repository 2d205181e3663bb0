import type { Item } from '@ctk/proto/ctk/pos/v1/pos';
import { AppError } from '@ctk/shared';
import { z } from 'zod';
import { requireOrg } from '../auth/authenticate.js';
import type { GatewayDeps } from '../deps.js';
import { handleField } from '../domain/organization-fields.js';
import { pageQuery } from '../domain/pagination.js';
import { itemPage, item as itemAnswer, type ItemAnswer } from '../items/item-answers.js';
import { newItemExample } from '../items/item-input.js';
import { callOptions, orgRef } from './service-call.js';
import { route, type RouteDefinition } from './route-definition.js';

const orgParams = z.object({ handle: handleField });
// Only the shape of an item: pos owns its rules (lengths, the price range, the currency) and names the field it refuses.
const newItem = z
  .object({
    name: z.string(),
    description: z.string().optional(),
    price_cents: z.number().int().describe('Minor units of currency'),
    currency: z.string().optional().describe('ISO 4217, upper case; USD when absent'),
    category: z.string().optional(),
    sku: z.string().optional().describe('Unique within the organisation'),
    available: z.boolean().default(true),
  })
  .strict();

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

function itemView(item: Item | undefined): ItemAnswer {
  if (!item) throw new AppError('internal', 'pos answered without the item');
  return {
    id: item.id,
    name: item.name,
    description: item.description,
    price_cents: Number(item.priceCents),
    currency: item.currency,
    category: item.category || null,
    sku: item.sku || null,
    available: item.available,
    created_at: item.createdAt,
  };
}
