import type { z } from 'zod';
import { authorizeRole, requireUser } from '../auth/authenticate.js';
import { rpcRoute } from '../contract/rpc-route.js';
import type { GatewayDeps } from '../deps.js';
import { handleField } from '../identity/organization-fields.js';
import { soleOrganizationHandle } from '../identity/sole-organization.js';
import type { RouteDefinition } from './route-definition.js';

/**
 * An item for a caller who need not name the organisation when they have only one (pos's CreateItem, as
 * `POST /api/v1/orgs/:handle/items` declares it in the contract).
 */
export function itemRoutes(deps: GatewayDeps): Record<string, RouteDefinition> {
  const callerItem = rpcRoute(deps, {
    rpc: ['pos', 'createItem'],
    body: true,
    answer: 'item',
    creates: true,
    status: 201,
    errors: ['forbidden', 'not_found', 'already_exists'],
  });
  return {
    'POST /api/v1/items': {
      ...callerItem,
      user: true,
      body: (callerItem.body as z.ZodObject).extend({
        org_handle: handleField.optional().describe('The organisation the item is for; required when the caller belongs to several'),
      }),
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
