import { messageAnswer } from '../contract/message-answer.js';
import type { GatewayDeps } from '../deps.js';
import { joinLoyaltyProgram, joinLoyaltyProgramBody } from '../loyalty-cards/join-loyalty-program.js';
import { route, type RouteDefinition } from './route-definition.js';

/**
 * A customer takes their own loyalty card (decision 0017, "Loyalty"), by hand: the gateway checks the
 * caller's proof of a key (decision 0024) before pos makes the card. The other loyalty routes are declared
 * in the contract. It does not take Idempotency-Key: its answer carries the card's identifier, which the
 * gateway does not keep; a card per holder is unique anyway.
 */
export function loyaltyCardRoutes(deps: GatewayDeps): Record<string, RouteDefinition> {
  const held = messageAnswer('ctk.pos.v1.HeldLoyaltyCard');
  return {
    'POST /api/v1/loyalty-cards': route({
      user: true,
      body: joinLoyaltyProgramBody,
      bodyExample: { org_handle: 'blue-bottle-cafe' },
      status: 201,
      answer: held.schema,
      errors: ['not_found', 'failed_precondition', 'already_exists'],
      handle: async ({ body, request }) => held.json((await joinLoyaltyProgram(deps, request, body))!),
    }),
  };
}
