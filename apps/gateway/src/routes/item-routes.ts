import type { z } from 'zod';
import { authorizeRole, requireUser } from '../auth/authenticate.js';
import { rpcRoute } from '../contract/rpc-route.js';
import type { GatewayDeps } from '../deps.js';
import { handleField, orgParams } from '../identity/organization-fields.js';
import { soleOrganizationHandle } from '../identity/sole-organization.js';
import { pageQuery } from './pagination.js';
import type { RouteDefinition } from './route-definition.js';

/** The organisation's items, served by the pos service. */
export function itemRoutes(deps: GatewayDeps): Record<string, RouteDefinition> {
  const createItem = { rpc: ['pos', 'createItem'], body: true, answer: 'item', creates: true, status: 201 } as const;
  const callerItem = rpcRoute(deps.services, { ...createItem, errors: ['forbidden', 'not_found', 'already_exists'] });
  return {
    'POST /api/v1/orgs/:handle/items': rpcRoute(deps.services, { ...createItem, params: orgParams, errors: ['already_exists'] }),
    'GET /api/v1/orgs/:handle/items': rpcRoute(deps.services, {
      rpc: ['pos', 'listItems'],
      params: orgParams,
      query: pageQuery,
      answer: { page: 'items' },
    }),
    // The same item, for a caller who need not name the organisation when they have only one.
    'POST /api/v1/items': {
      ...callerItem,
      user: true,
      body: callerItemBody(callerItem),
      bodyExample: { org_handle: 'blue-bottle-cafe', ...(callerItem.bodyExample as object) },
      handle: async (input) => {
        const { org_handle, ...item } = input.body as { org_handle?: string };
        const handle = org_handle ?? (await soleOrganizationHandle(deps, requireUser(input.request).userId));
        await authorizeRole(input.request, 'staff', deps.credentials, handle);
        return callerItem.handle({ ...input, body: item });
      },
    },
  };
}

/** POST /api/v1/items: the item's fields and the organisation it is for, named unless the caller has only one. */
function callerItemBody(route: RouteDefinition) {
  return (route.body as z.ZodObject).extend({
    org_handle: handleField.optional().describe('The organisation the item is for; required when the caller belongs to several'),
  });
}
