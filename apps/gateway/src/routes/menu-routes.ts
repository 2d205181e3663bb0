import { rpcRoute } from '../contract/rpc-route.js';
import type { GatewayDeps } from '../deps.js';
import { orgParams } from '../identity/organization-fields.js';
import { etagOf, ifMatchRefused, ifMatchVersion } from '../items/menu-version.js';
import { requireOrg } from '../auth/authenticate.js';
import { callOptions, orgRef } from './service-call.js';
import type { HeaderDoc, RouteDefinition } from './route-definition.js';

const ETAG: HeaderDoc = {
  description: "The menu's version in double quotes: send it back as If-Match to replace the menu",
  example: '"4"',
};

/** The organisation's menu, read and replaced as a whole (decision 0015), served by the pos service. */
export function menuRoutes(deps: GatewayDeps): Record<string, RouteDefinition> {
  const menu = {
    params: orgParams,
    answer: 'menu',
    answerHeaders: { ETag: ETAG },
    after: (answer: Record<string, unknown>, { reply }: { reply: { header(name: string, value: string): unknown } }) =>
      reply.header('etag', etagOf(answer.version as number)),
  } as const;
  return {
    'GET /api/v1/orgs/:handle/menu': rpcRoute(deps.services, { ...menu, rpc: ['pos', 'getMenu'] }),
    'PUT /api/v1/orgs/:handle/menu': rpcRoute(deps.services, {
      ...menu,
      rpc: ['pos', 'replaceMenu'],
      body: true,
      headers: {
        'If-Match': {
          description: 'The ETag of the menu the change was made to; missing or stale: 412 precondition_failed, and nothing changes',
          example: '"4"',
          required: true,
        },
      },
      errors: ['precondition_failed'],
      fill: {
        fields: ['expected_version'],
        from: async ({ request }) => {
          const header = request.headers['if-match'];
          const expectedVersion = ifMatchVersion(header);
          if (expectedVersion !== null) return { expectedVersion };
          const { menu: current } = await deps.services.pos.getMenu({ org: orgRef(requireOrg(request)) }, callOptions(request));
          throw ifMatchRefused(header, current?.version ?? 0n);
        },
      },
    }),
  };
}
