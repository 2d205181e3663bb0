import { AppError } from '@ctk/shared';
import { z } from 'zod';
import { messageDesc } from '../contract/contract-registry.js';
import { toJson } from '../contract/json-mapping.js';
import { messageSchema } from '../contract/message-schema.js';
import type { GatewayDeps } from '../deps.js';
import { shopProfile } from '../federation/shop-profile.js';
import { handleField } from '../identity/organization-fields.js';
import { route, type RouteDefinition } from './route-definition.js';
import { callOptions, orgRef } from './service-call.js';

const SHOP_SIGN = messageDesc('ctk.federation.v1.ShopSign');
/** How long a browser or a shared cache may show a sign before asking again. */
const MAX_AGE_SECONDS = 60;

/**
 * The open sign, by hand: JSON, or the SVG badge a shop embeds (`?format=svg`, or an Accept that prefers
 * image/svg+xml), both from federation's GetSign with the shop's profile as the gateway keeps it now.
 */
export function signRoutes(deps: GatewayDeps): Record<string, RouteDefinition> {
  return {
    'GET /api/v1/shops/:org_handle/sign': route({
      params: z.object({ org_handle: handleField.describe("The shop: its organisation's handle") }),
      query: z.object({ format: z.enum(['json', 'svg']).optional().describe('svg: the badge; json (default): the state') }),
      answer: messageSchema(SHOP_SIGN, 'answer'),
      files: {
        'image/svg+xml': {
          description: 'The open sign as an SVG badge to embed (<img src=".../sign?format=svg">)',
          example:
            '<svg xmlns="http://www.w3.org/2000/svg" width="220" height="40" role="img" aria-label="Blue Bottle is open until 17:00">…</svg>',
        },
      },
      handle: async ({ params, query, request, reply }) => {
        const org = await deps.credentials.org(params.org_handle);
        if (!org) throw new AppError('not_found', `No shop with handle "${params.org_handle}".`, { field: 'org_handle' });
        const sign = await deps.services.federation.getSign(
          { org: orgRef(org), profile: await shopProfile(deps, org.id) },
          callOptions(request),
        );
        reply.header('cache-control', `public, max-age=${MAX_AGE_SECONDS}`);
        const svg = query.format === 'svg' || (query.format === undefined && prefersSvg(request.headers.accept));
        if (!svg) return toJson(SHOP_SIGN, sign.shopSign as never) as never;
        reply.type('image/svg+xml; charset=utf-8').header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'");
        return sign.svg as never;
      },
    }),
  };
}

/** Whether an Accept header asks for SVG before JSON (an <img> sends image/* types first). */
function prefersSvg(accept: string | undefined): boolean {
  if (!accept) return false;
  const svg = accept.indexOf('image/svg+xml');
  const json = accept.indexOf('application/json');
  return svg !== -1 && (json === -1 || svg < json);
}
