import { requireOrg } from '../auth/authenticate.js';
import type { GatewayDeps } from '../deps.js';
import { menu as menuAnswer } from '../items/item-answers.js';
import { menuReplacement, menuReplacementExample, orgParams } from '../items/item-input.js';
import { etagOf, ifMatchRefused, ifMatchVersion } from '../items/menu-version.js';
import { menuView } from '../items/menu-view.js';
import { callOptions, orgRef } from './service-call.js';
import { route, type HeaderDoc, type RouteDefinition } from './route-definition.js';

const ETAG: HeaderDoc = {
  description: "The menu's version in double quotes: send it back as If-Match to replace the menu",
  example: '"4"',
};

/** The organisation's menu, read and replaced as a whole (decision 0015), served by the pos service. */
export function menuRoutes(deps: GatewayDeps): Record<string, RouteDefinition> {
  return {
    'GET /api/v1/orgs/:handle/menu': route({
      params: orgParams,
      answer: menuAnswer,
      answerHeaders: { ETag: ETAG },
      handle: async ({ request, reply }) => {
        const { menu } = await deps.services.pos.getMenu({ org: orgRef(requireOrg(request)) }, callOptions(request));
        const view = menuView(menu);
        reply.header('etag', etagOf(view.version));
        return view;
      },
    }),
    'PUT /api/v1/orgs/:handle/menu': route({
      params: orgParams,
      body: menuReplacement,
      bodyExample: menuReplacementExample,
      headers: {
        'If-Match': {
          description: 'The ETag of the menu the change was made to; missing or stale: 412 precondition_failed, and nothing changes',
          example: '"4"',
          required: true,
        },
      },
      answer: menuAnswer,
      answerHeaders: { ETag: ETAG },
      errors: ['precondition_failed'],
      handle: async ({ body, request, reply }) => {
        const org = orgRef(requireOrg(request));
        const header = request.headers['if-match'];
        const expectedVersion = ifMatchVersion(header);
        if (expectedVersion === null) {
          const { menu } = await deps.services.pos.getMenu({ org }, callOptions(request));
          throw ifMatchRefused(header, menu?.version ?? 0n);
        }
        const { menu } = await deps.services.pos.replaceMenu(
          {
            org,
            expectedVersion,
            sections: body.sections.map((section) => ({ name: section.name, itemIds: section.item_ids, items: [] })),
            tipBasisPoints: body.tip_basis_points ?? [],
          },
          callOptions(request),
        );
        const view = menuView(menu);
        reply.header('etag', etagOf(view.version));
        return view;
      },
    }),
  };
}
