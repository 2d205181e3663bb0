import type { GatewayDeps } from '../deps.js';
import { requireOrg } from '../auth/authenticate.js';
import { shopProfile } from '../federation/shop-profile.js';
import { orgParams } from '../identity/organization-fields.js';
import { siteInputs } from '../site/site-inputs.js';
import { route, type RouteDefinition } from './route-definition.js';
import { callOptions, orgRef } from './service-call.js';

/**
 * The site's home page as it would be published now (decision 0035), by hand: HTML, not JSON. It is shown
 * sandboxed (no script runs, so its Buy buttons stay inert; its stylesheet is inline) and never cached.
 */
export function siteRoutes(deps: GatewayDeps): Record<string, RouteDefinition> {
  return {
    'GET /api/v1/orgs/:handle/site/preview': route({
      params: orgParams,
      files: {
        'text/html': {
          description: "The site's index.html as it would be published now, its stylesheet inline",
          example: '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Blue Bottle Cafe</title>…</html>',
        },
      },
      errors: ['unavailable'],
      handle: async ({ request, reply }) => {
        const org = requireOrg(request);
        const { html } = await deps.services.commerce.previewSite(
          {
            org: orgRef(org),
            profile: await shopProfile(deps, org.id),
            inputs: await siteInputs(deps, org.id),
            publicUrl: deps.config.CTK_PUBLIC_URL,
          },
          { ...callOptions(request), timeoutMs: 30_000 },
        );
        reply
          .type('text/html; charset=utf-8')
          .header('cache-control', 'no-store')
          .header('content-security-policy', "sandbox; default-src 'none'; style-src 'unsafe-inline'; img-src * data:");
        return html;
      },
    }),
  };
}
