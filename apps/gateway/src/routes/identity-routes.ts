import { AppError, isUniqueViolation } from '@ctk/shared';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { requireOrg, requireUser } from '../auth/authenticate.js';
import type { GatewayDeps } from '../deps.js';
import { onboard } from '../domain/onboard.js';
import { handleField, organizationData, organizationFields, organizationUpdate } from '../domain/organization-fields.js';
import { organizationView } from '../domain/organization-view.js';
import { afterCursor, NEWEST_FIRST, pageQuery, toPage } from '../domain/pagination.js';
import { me, memberOrganization, memberOrganizationPage, onboarded } from '../identity/identity-answers.js';
import { newOrganizationExample, onboardExample, organizationUpdateExample } from '../identity/identity-input.js';
import { paymailDomain } from '../domain/paymail-domain.js';
import { checkJurisdiction } from '../domain/tax-settings.js';
import { route, type RouteDefinition } from './route-definition.js';
import { callOptions } from './service-call.js';

const onboardBody = organizationFields.extend({
  user: z
    .object({ name: z.string().trim().min(1).max(120).optional(), email: z.email().optional() })
    .strict()
    .optional(),
});
const handleParams = z.object({ handle: handleField });

/** Onboarding, organisations and the caller. */
export function identityRoutes(deps: GatewayDeps): Record<string, RouteDefinition> {
  const domain = paymailDomain(deps.config);
  return {
    'POST /api/v1/onboard': route({
      signup: true,
      body: onboardBody,
      bodyExample: onboardExample,
      creates: true,
      status: 201,
      answer: onboarded,
      errors: ['already_exists', 'unavailable'],
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
      bodyExample: newOrganizationExample,
      creates: true,
      status: 201,
      answer: onboarded,
      errors: ['already_exists', 'unavailable'],
      handle: async ({ body, request }) => {
        const { userId } = requireUser(request);
        await checkJurisdiction(deps, body.jurisdiction, callOptions(request));
        return onboard(deps, userId, body);
      },
    }),
    'GET /api/v1/organizations': route({
      query: pageQuery,
      answer: memberOrganizationPage,
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
      answer: memberOrganization,
      handle: async ({ request }) => {
        const org = await deps.prisma.organization.findUniqueOrThrow({ where: { id: requireOrg(request).id } });
        return { ...organizationView(org, domain), role: callerRole(request) };
      },
    }),
    'PATCH /api/v1/organizations/:handle': route({
      params: handleParams,
      body: organizationUpdate,
      bodyExample: organizationUpdateExample,
      answer: memberOrganization,
      errors: ['already_exists', 'unavailable'],
      handle: async ({ body, request }) => {
        await checkJurisdiction(deps, body.jurisdiction, callOptions(request));
        try {
          const org = await deps.prisma.organization.update({ where: { id: requireOrg(request).id }, data: organizationData(body) });
          deps.credentials.forget();
          return { ...organizationView(org, domain), role: callerRole(request) };
        } catch (error) {
          if (isUniqueViolation(error)) throw new AppError('already_exists', `The paymail alias "${body.paymail_alias}" is taken.`);
          throw error;
        }
      },
    }),
    'GET /api/v1/me': route({
      answer: me,
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

/** The caller's role in the organisation of the path: always resolved on a route that requires one. */
function callerRole(request: FastifyRequest) {
  const { role } = requireOrg(request);
  if (!role) throw new AppError('internal', 'No role resolved for this route');
  return role;
}
