import { rpcRoute } from '../contract/rpc-route.js';
import type { GatewayDeps } from '../deps.js';
import { orgParams } from '../identity/organization-fields.js';
import type { RouteDefinition } from './route-definition.js';

/**
 * The organisation's loyalty program (decision 0017, "Loyalty"; not in the spec's tables): staff read
 * it, admins replace it as a whole. pos owns its rules, and answers none yet as 404 saying how to make one.
 */
export function loyaltyProgramRoutes(deps: GatewayDeps): Record<string, RouteDefinition> {
  const program = { params: orgParams, answer: 'program' } as const;
  return {
    'GET /api/v1/orgs/:handle/loyalty-program': rpcRoute(deps.services, { ...program, rpc: ['pos', 'getLoyaltyProgram'] }),
    'PUT /api/v1/orgs/:handle/loyalty-program': rpcRoute(deps.services, {
      ...program,
      rpc: ['pos', 'replaceLoyaltyProgram'],
      body: 'program',
    }),
  };
}
