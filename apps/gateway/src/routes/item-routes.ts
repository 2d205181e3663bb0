import type { FastifyRequest } from 'fastify';
import { authorizeRole, requireOrg, requireUser } from '../auth/authenticate.js';
import type { GatewayDeps } from '../deps.js';
import { soleOrganizationHandle } from '../identity/sole-organization.js';
import { itemPage, item as itemAnswer } from '../items/item-answers.js';
import { newCallerItem, newCallerItemExample, newItem, newItemExample, orgParams, type NewItemBody } from '../items/item-input.js';
import { itemView } from '../items/item-view.js';
import { pageQuery } from './pagination.js';
import { callOptions, orgRef } from './service-call.js';
import { route, type RouteDefinition } from './route-definition.js';

/** The organisation's items, served by the pos service. */
export function itemRoutes(deps: GatewayDeps): Record<string, RouteDefinition> {
  /** Creates the item in the organisation resolved for the request, which the caller is staff of. */
  const createItem = async (request: FastifyRequest, body: NewItemBody) => {
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
        taxTreatment: body.tax_treatment ?? '',
        taxRate: body.tax_rate ?? '',
        priceType: body.price_type ?? '',
        ...(body.inventory === undefined || body.inventory === null ? {} : { inventory: BigInt(body.inventory) }),
        modifiers: (body.modifiers ?? []).map((modifier) => ({
          id: '',
          name: modifier.name,
          priceCents: BigInt(modifier.price_cents),
          group: modifier.group ?? '',
        })),
      },
      callOptions(request),
    );
    return itemView(response.item);
  };

  return {
    'POST /api/v1/orgs/:handle/items': route({
      params: orgParams,
      body: newItem,
      bodyExample: newItemExample,
      creates: true,
      status: 201,
      answer: itemAnswer,
      errors: ['already_exists'],
      handle: ({ body, request }) => createItem(request, body),
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
    // The same item, for a caller who need not name the organisation when they have only one.
    'POST /api/v1/items': route({
      user: true,
      body: newCallerItem,
      bodyExample: newCallerItemExample,
      creates: true,
      status: 201,
      answer: itemAnswer,
      errors: ['forbidden', 'not_found', 'already_exists'],
      handle: async ({ body: { org_handle, ...item }, request }) => {
        const handle = org_handle ?? (await soleOrganizationHandle(deps, requireUser(request).userId));
        await authorizeRole(request, 'staff', deps.credentials, handle);
        return createItem(request, item);
      },
    }),
  };
}
