import { requireMembership, requireUser } from '../auth/authenticate.js';
import type { GatewayDeps } from '../deps.js';
import { onboard } from '../identity/onboard.js';
import { describeCaller } from '../identity/describe-caller.js';
import { getOrganization } from '../identity/get-organization.js';
import { listOrganizations } from '../identity/list-organizations.js';
import { organizationFields, organizationUpdate, orgParams } from '../identity/organization-fields.js';
import { messageAnswer } from '../contract/message-answer.js';
import { pageQuery } from './pagination.js';
import { newOrganizationExample, onboardExample, organizationUpdateExample, onboardBody } from '../identity/identity-input.js';
import { updateOrganization } from '../identity/update-organization.js';
import { route, type RouteDefinition } from './route-definition.js';
import { callOptions } from './service-call.js';

/** The answers: messages of the gateway's contract (proto/ctk/gateway/v1/identity.proto). */
const ONBOARDED = messageAnswer('ctk.gateway.v1.Onboarded');
const MEMBER_ORGANIZATION = messageAnswer('ctk.gateway.v1.MemberOrganization');
const ME = messageAnswer('ctk.gateway.v1.Me');

/** Onboarding, organisations and the caller. */
export function identityRoutes(deps: GatewayDeps): Record<string, RouteDefinition> {
  return {
    'POST /api/v1/onboard': route({
      secrets: ONBOARDED.secrets,
      signup: true,
      body: onboardBody,
      bodyExample: onboardExample,
      creates: true,
      status: 201,
      answer: ONBOARDED.schema,
      errors: ['already_exists', 'unavailable'],
      handle: async ({ body, request }) => {
        const { user, ...fields } = body;
        const callerId = request.caller.kind === 'user' ? request.caller.userId : undefined;
        return ONBOARDED.json(await onboard(deps, callerId, fields, callOptions(request), user));
      },
    }),
    'POST /api/v1/organizations': route({
      user: true,
      body: organizationFields,
      bodyExample: newOrganizationExample,
      creates: true,
      status: 201,
      answer: ONBOARDED.schema,
      errors: ['already_exists', 'unavailable'],
      handle: async ({ body, request }) => {
        const { userId } = requireUser(request);
        return ONBOARDED.json(await onboard(deps, userId, body, callOptions(request)));
      },
    }),
    'GET /api/v1/organizations': route({
      query: pageQuery,
      answer: MEMBER_ORGANIZATION.page,
      handle: async ({ query, request }) =>
        MEMBER_ORGANIZATION.pageJson(await listOrganizations(deps, requireUser(request).userId, query, callOptions(request))),
    }),
    'GET /api/v1/organizations/:handle': route({
      params: orgParams,
      answer: MEMBER_ORGANIZATION.schema,
      handle: async ({ request }) =>
        MEMBER_ORGANIZATION.json(await getOrganization(deps, requireMembership(request), callOptions(request))),
    }),
    'PATCH /api/v1/organizations/:handle': route({
      params: orgParams,
      body: organizationUpdate,
      bodyExample: organizationUpdateExample,
      answer: MEMBER_ORGANIZATION.schema,
      errors: ['already_exists', 'unavailable'],
      handle: async ({ body, request }) =>
        MEMBER_ORGANIZATION.json(await updateOrganization(deps, requireMembership(request), body, callOptions(request))),
    }),
    'GET /api/v1/me': route({
      answer: ME.schema,
      handle: async ({ request }) => ME.json(await describeCaller(deps, requireUser(request))),
    }),
  };
}
