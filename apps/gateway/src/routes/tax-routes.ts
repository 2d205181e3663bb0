import type { GatewayDeps } from '../deps.js';
import { taxJurisdictionPage } from '../tax/tax-answers.js';
import { jurisdictionsQuery } from '../tax/tax-input.js';
import { route, type RouteDefinition } from './route-definition.js';
import { callOptions } from './service-call.js';

/** The tax table the books service keeps, public: what a jurisdiction code means, its rate, and whether prices there include it. */
export function taxRoutes(deps: GatewayDeps): Record<string, RouteDefinition> {
  return {
    'GET /api/v1/tax/jurisdictions': route({
      query: jurisdictionsQuery,
      answer: taxJurisdictionPage,
      handle: async ({ query, request }) => {
        const { jurisdictions } = await deps.services.books.listTaxJurisdictions(
          { country: query.country ?? '', at: query.at ?? '' },
          callOptions(request),
        );
        return {
          data: jurisdictions.map((j) => ({
            code: j.code,
            name: j.name,
            country: j.country,
            kind: j.kind,
            rate: j.rate,
            effective_from: j.effectiveFrom,
            prices_include_tax: j.pricesIncludeTax,
          })),
          next_cursor: null,
        };
      },
    }),
  };
}
