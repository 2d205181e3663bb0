import { messageDesc } from '../contract/contract-registry.js';
import { messageSchema } from '../contract/message-schema.js';
import { rpcRoute } from '../contract/rpc-route.js';
import type { GatewayDeps } from '../deps.js';
import type { RouteDefinition } from './route-definition.js';

/** The tax table the books service keeps, public: what a jurisdiction code means, its rate, and whether prices there include it. */
export function taxRoutes(deps: GatewayDeps): Record<string, RouteDefinition> {
  return {
    // The query is the request's fields, shape only: books checks the country code and the date.
    'GET /api/v1/tax/jurisdictions': rpcRoute(deps.services, {
      rpc: ['books', 'listTaxJurisdictions'],
      query: messageSchema(messageDesc('ctk.books.v1.ListTaxJurisdictionsRequest'), 'request'),
      answer: { page: 'jurisdictions' },
    }),
  };
}
