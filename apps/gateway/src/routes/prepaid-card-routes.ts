import { requireUser } from '../auth/authenticate.js';
import { messageAnswer } from '../contract/message-answer.js';
import type { GatewayDeps } from '../deps.js';
import { clientAddress } from '../plugins/rate-limits.js';
import { purchasePrepaidCard, purchasePrepaidCardBody } from '../prepaid-cards/purchase-prepaid-card.js';
import { route, type RouteDefinition } from './route-definition.js';
import { callOptions } from './service-call.js';

const ISSUED = messageAnswer('ctk.pos.v1.IssuedPrepaidCard');

/**
 * A customer buys a prepaid card (decision 0017), by hand: the gateway decides who holds it (the caller,
 * or for a gift `to` or nobody). The other prepaid card routes are declared in the contract.
 */
export function prepaidCardRoutes(deps: GatewayDeps): Record<string, RouteDefinition> {
  return {
    'POST /api/v1/prepaid-cards/purchase': route({
      user: true,
      body: purchasePrepaidCardBody,
      bodyExample: { org_handle: 'blue-bottle-cafe', amount_minor: 5000, gift: true } as never,
      creates: true,
      status: 201,
      // The identifier in full: sealed in idempotent replays, never cached.
      secrets: ISSUED.secrets,
      answer: ISSUED.schema,
      errors: ['not_found'],
      handle: async ({ body, request }) =>
        ISSUED.json(
          await purchasePrepaidCard(
            deps,
            body,
            { userId: requireUser(request).userId, clientAddress: clientAddress(request) },
            callOptions(request),
          ),
        ),
    }),
  };
}
