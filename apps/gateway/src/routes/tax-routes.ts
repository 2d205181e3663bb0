import { calendarDate } from '@ctk/shared';
import { z } from 'zod';
import type { GatewayDeps } from '../deps.js';
import { taxJurisdictionPage } from '../tax/tax-answers.js';
import { route, type RouteDefinition } from './route-definition.js';
import { callOptions } from './service-call.js';

const jurisdictionsQuery = z
  .object({
    country: z
      .string()
      .regex(/^[A-Za-z]{2}$/, 'use an ISO 3166-1 alpha-2 code such as "US" or "DE"')
      .transform((code) => code.toUpperCase())
      .optional(),
    at: calendarDate('at').optional(),
  })
  .strict();

/** The tax table the books service keeps, public: what a jurisdiction code means and its rate. */
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
          })),
          next_cursor: null,
        };
      },
    }),
  };
}
