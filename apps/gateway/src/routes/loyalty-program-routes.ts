import { AppError } from '@ctk/shared';
import { requireOrg } from '../auth/authenticate.js';
import type { GatewayDeps } from '../deps.js';
import { orgParams } from '../items/item-input.js';
import { loyaltyProgram } from '../loyalty-cards/loyalty-card-answers.js';
import { loyaltyProgramBody, loyaltyProgramExample } from '../loyalty-cards/loyalty-card-input.js';
import { loyaltyProgramView } from '../loyalty-cards/loyalty-card-view.js';
import { route, type RouteDefinition } from './route-definition.js';
import { callOptions, orgRef } from './service-call.js';

/**
 * The organisation's loyalty program (decision 0017, "Loyalty"; not in the spec's tables): staff read
 * it, admins replace it as a whole. pos owns its rules.
 */
export function loyaltyProgramRoutes(deps: GatewayDeps): Record<string, RouteDefinition> {
  return {
    'GET /api/v1/orgs/:handle/loyalty-program': route({
      params: orgParams,
      answer: loyaltyProgram,
      handle: async ({ request }) => {
        const org = requireOrg(request);
        const response = await deps.services.pos.getLoyaltyProgram({ org: orgRef(org) }, callOptions(request));
        if (!response.program) {
          throw new AppError(
            'not_found',
            `${org.handle} has no loyalty program yet: an admin makes one with PUT /api/v1/orgs/${org.handle}/loyalty-program`,
          );
        }
        return loyaltyProgramView(response.program);
      },
    }),
    'PUT /api/v1/orgs/:handle/loyalty-program': route({
      params: orgParams,
      body: loyaltyProgramBody,
      bodyExample: loyaltyProgramExample,
      answer: loyaltyProgram,
      handle: async ({ body, request }) => {
        const program = {
          stampRule: body.stamp_rule,
          amountPerStampMinor: BigInt(body.amount_per_stamp_minor ?? 0),
          stampsForReward: body.stamps_for_reward,
          reward: body.reward,
          rewardValueMinor: BigInt(body.reward_value_minor ?? 0),
          active: body.active,
          version: 0n,
          updatedAt: '',
        };
        const response = await deps.services.pos.replaceLoyaltyProgram({ org: orgRef(requireOrg(request)), program }, callOptions(request));
        return loyaltyProgramView(response.program);
      },
    }),
  };
}
