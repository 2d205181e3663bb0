import { AppError, isUniqueViolation } from '@ctk/shared';
import { z } from 'zod';
import { requireOrg, requireUser } from '../auth/authenticate.js';
import type { GatewayDeps } from '../deps.js';
import { onboard } from '../domain/onboard.js';
import { handleField, organizationData, organizationFields, organizationUpdate } from '../domain/organization-fields.js';
import { organizationView } from '../domain/organization-view.js';
import { afterCursor, NEWEST_FIRST, pageQuery, toPage } from '../domain/pagination.js';
import { paymailDomain } from '../domain/paymail-domain.js';
import { emailField, nameField } from '../domain/text-fields.js';
import { checkJurisdiction } from '../domain/tax-settings.js';
import { route, type RouteDefinition } from './route-definition.js';
import { callOptions } from './service-call.js';

const onboardBody = organizationFields.extend({
  user: z
    .object({ name: nameField(120).optional(), email: emailField.optional() })
    .strict()
    .optional(),
});
const handleParams = z.object({ handle: handleField });

/** Onboarding, organisations and the caller. */
export function identityRoutes(deps: GatewayDeps): Record<string, RouteDefinition> {
  const domain = paymailDomain(deps.config);
  return {
    'POST /api/v1/onboard': route({
      secrets: [{ path: ['api_key', 'key'], kind: 'api_key' }],
      signup: true,
      body: onboardBody,
      creates: true,
      status: 201,
      handle: async ({ body, request }) => {
        const { user, ...fields } = body;
        const callerId = request.caller.kind === 'user' ? request.caller.userId : undefined;
        await checkJurisdiction(deps, fields.jurisdiction, callOptions(request));
        return onboard(deps, callerId, fields, user);
      },
    }),
    'POST /api/v1/organizations': route({
      user: true,
      body: organizationFields,
      creates: true,
      status: 201,
      handle: async ({ body, request }) => {
        const { userId } = requireUser(request);
        await checkJurisdiction(deps, body.jurisdiction, callOptions(request));
        return onboard(deps, userId, body);
      },
    }),
    'GET /api/v1/organizations': route({
      query: pageQuery,
      handle: async ({ query, request }) => {
        const { userId } = requireUser(request);
        const rows = await deps.prisma.membership.findMany({
          where: { userId, ...afterCursor(query.cursor) },
          orderBy: NEWEST_FIRST,
          take: query.limit + 1,
          include: { organization: true },
        });
        return toPage(rows, query.limit, (m) => ({ ...organizationView(m.organization, domain), role: m.role }));
      },
    }),
    'GET /api/v1/organizations/:handle': route({
      params: handleParams,
      handle: async ({ request }) => {
        const org = await deps.prisma.organization.findUniqueOrThrow({ where: { id: requireOrg(request).id } });
        return { ...organizationView(org, domain), role: request.org?.role };
      },
    }),
    'PATCH /api/v1/organizations/:handle': route({
      params: handleParams,
      body: organizationUpdate,
      handle: async ({ body, request }) => {
        await checkJurisdiction(deps, body.jurisdiction, callOptions(request));
        try {
          const org = await deps.prisma.organization.update({ where: { id: requireOrg(request).id }, data: organizationData(body) });
          deps.credentials.forget();
          return { ...organizationView(org, domain), role: request.org?.role };
        } catch (error) {
          if (isUniqueViolation(error)) throw new AppError('already_exists', `The paymail alias "${body.paymail_alias}" is taken.`);
          throw error;
        }
      },
    }),
    'GET /api/v1/me': route({
      handle: async ({ request }) => {
        const { userId, apiKeyId } = requireUser(request);
        const user = await deps.prisma.user.findUniqueOrThrow({
          where: { id: userId },
          include: { memberships: { include: { organization: true }, orderBy: { createdAt: 'asc' } } },
        });
        const key = await deps.prisma.apiKey.findUniqueOrThrow({ where: { id: apiKeyId } });
        return {
          id: user.id,
          name: user.name,
          email: user.email,
          did: user.did,
          created_at: user.createdAt.toISOString(),
          api_key: { id: key.id, name: key.name, prefix: key.prefix },
          organizations: user.memberships.map((m) => ({ handle: m.organization.handle, name: m.organization.name, role: m.role })),
        };
      },
    }),
  };
}
