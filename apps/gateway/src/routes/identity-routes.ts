import { requireMembership, requireUser } from '../auth/authenticate.js';
import type { GatewayDeps } from '../deps.js';
import { onboard } from '../identity/onboard.js';
import { describeCaller } from '../identity/describe-caller.js';
import { getOrganization } from '../identity/get-organization.js';
import { listOrganizations } from '../identity/list-organizations.js';
import { organizationFields, organizationUpdate } from '../identity/organization-fields.js';
import { pageQuery } from './pagination.js';
import { me, memberOrganization, memberOrganizationPage, onboarded } from '../identity/identity-answers.js';
import {
  newOrganizationExample,
  onboardExample,
  organizationUpdateExample,
  onboardBody,
  handleParams,
} from '../identity/identity-input.js';
import { updateOrganization } from '../identity/update-organization.js';
import { route, type RouteDefinition } from './route-definition.js';
import { callOptions } from './service-call.js';

/** Onboarding, organisations and the caller. */
export function identityRoutes(deps: GatewayDeps): Record<string, RouteDefinition> {
  return {
    'POST /api/v1/onboard': route({
      secrets: [{ path: ['api_key', 'key'], kind: 'api_key' }],
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
        return onboard(deps, callerId, fields, callOptions(request), user);
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
        return onboard(deps, userId, body, callOptions(request));
      },
    }),
    'GET /api/v1/organizations': route({
      query: pageQuery,
      answer: memberOrganizationPage,
      handle: ({ query, request }) => listOrganizations(deps, requireUser(request).userId, query, callOptions(request)),
    }),
    'GET /api/v1/organizations/:handle': route({
      params: handleParams,
      answer: memberOrganization,
      handle: ({ request }) => getOrganization(deps, requireMembership(request), callOptions(request)),
    }),
    'PATCH /api/v1/organizations/:handle': route({
      params: handleParams,
      body: organizationUpdate,
      bodyExample: organizationUpdateExample,
      answer: memberOrganization,
      errors: ['already_exists', 'unavailable'],
      handle: ({ body, request }) => updateOrganization(deps, requireMembership(request), body, callOptions(request)),
    }),
    'GET /api/v1/me': route({
      answer: me,
      handle: ({ request }) => describeCaller(deps, requireUser(request)),
    }),
  };
}
