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
const newItem = z
  .object({
    name: z.string().trim().min(1).max(200),
    description: z.string().max(2000).default(''),
    price_cents: z.number().int().min(0).max(1_000_000_000_000),
    currency: z
      .string()
      .regex(/^[A-Z]{3}$/, 'an ISO 4217 code such as "USD"')
      .default('USD'),
    category: z.string().trim().max(60).default(''),
    sku: z.string().trim().max(64).default(''),
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
        const { price_cents, ...rest } = body;
        const response = await deps.services.pos.createItem(
          { org: orgRef(requireOrg(request)), ...rest, priceCents: BigInt(price_cents) },
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
