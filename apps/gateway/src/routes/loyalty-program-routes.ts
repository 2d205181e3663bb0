import { AppError } from '@ctk/shared';
import { requireOrg } from '../auth/authenticate.js';
import { messageDesc } from '../contract/contract-registry.js';
import { toJson } from '../contract/json-mapping.js';
import { messageSchema } from '../contract/message-schema.js';
import { rpcRoute } from '../contract/rpc-route.js';
import type { GatewayDeps } from '../deps.js';
import { orgParams } from '../identity/organization-fields.js';
import { route, type RouteDefinition } from './route-definition.js';
import { callOptions, orgRef } from './service-call.js';

/**
 * The organisation's loyalty program (decision 0017, "Loyalty"; not in the spec's tables): staff read
 * it, admins replace it as a whole. pos owns its rules.
 */
export function loyaltyProgramRoutes(deps: GatewayDeps): Record<string, RouteDefinition> {
  const program = messageDesc('ctk.pos.v1.LoyaltyProgram');
  return {
    // By hand: none yet is 404 saying how to make one, where pos answers no program.
    'GET /api/v1/orgs/:handle/loyalty-program': route({
      params: orgParams,
      answer: messageSchema(program, 'answer'),
      handle: async ({ request }) => {
        const org = requireOrg(request);
        const response = await deps.services.pos.getLoyaltyProgram({ org: orgRef(org) }, callOptions(request));
        if (!response.program) {
          throw new AppError(
            'not_found',
            `${org.handle} has no loyalty program yet: an admin makes one with PUT /api/v1/orgs/${org.handle}/loyalty-program`,
          );
        }
        return toJson(program, response.program as never);
      },
    }),
    'PUT /api/v1/orgs/:handle/loyalty-program': rpcRoute(deps.services, {
      rpc: ['pos', 'replaceLoyaltyProgram'],
      params: orgParams,
      body: 'program',
      answer: 'program',
    }),
  };
}
