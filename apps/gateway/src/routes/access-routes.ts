import { z } from 'zod';
import { requireOrg, requireUser } from '../auth/authenticate.js';
import type { GatewayDeps } from '../deps.js';
import { createApiKey, listApiKeys, revokeApiKey } from '../access/api-keys.js';
import { addMember, changeMemberRole, listMembers, removeMember } from '../access/members.js';
import { createPaygateKey, listPaygateKeys, revokePaygateKey, rotateCommerceKey } from '../access/org-keys.js';
import { handleField } from '../identity/organization-fields.js';
import { pageQuery } from './pagination.js';
import {
  addedMember,
  apiKeyPage,
  changedMember,
  commerceKey,
  issuedApiKey,
  memberPage,
  newPaygateKey,
  paygateKeyPage,
  removedMember,
  revoked,
} from '../access/access-answers.js';
import {
  keyNameExample,
  memberRoleExample,
  newMemberExample,
  paygateKeyNameExample,
  role,
  keyName,
  orgParams,
  idParams,
  memberParams,
  newMember,
} from '../access/access-input.js';
import { route, type RouteDefinition } from './route-definition.js';

/** What the spec's settings page would do: a user's API keys, members and roles, the organisation's keys. */
export function accessRoutes(deps: GatewayDeps): Record<string, RouteDefinition> {
  return {
    'GET /api/v1/me/api-keys': route({
      query: pageQuery,
      answer: apiKeyPage,
      handle: ({ query, request }) => listApiKeys(deps, requireUser(request).userId, query),
    }),
    'POST /api/v1/me/api-keys': route({
      secrets: [{ path: ['key'], kind: 'api_key' }],
      body: keyName,
      creates: true,
      status: 201,
      bodyExample: keyNameExample,
      answer: issuedApiKey,
      handle: ({ body, request }) => createApiKey(deps, requireUser(request).userId, body.name),
    }),
    'DELETE /api/v1/me/api-keys/:id': route({
      params: idParams,
      answer: revoked,
      errors: ['not_found'],
      handle: ({ params, request }) => revokeApiKey(deps, requireUser(request).userId, params.id),
    }),
    'GET /api/v1/orgs/:handle/members': route({
      params: orgParams,
      query: pageQuery,
      answer: memberPage,
      handle: ({ query, request }) => listMembers(deps, requireOrg(request), query),
    }),
    'POST /api/v1/orgs/:handle/members': route({
      secrets: [{ path: ['api_key', 'key'], kind: 'api_key' }],
      params: orgParams,
      body: newMember,
      creates: true,
      status: 201,
      bodyExample: newMemberExample,
      answer: addedMember,
      errors: ['already_exists'],
      handle: ({ body, request }) => addMember(deps, requireOrg(request), body),
    }),
    'PATCH /api/v1/orgs/:handle/members/:user_id': route({
      params: memberParams,
      body: z.object({ role }).strict(),
      bodyExample: memberRoleExample,
      answer: changedMember,
      errors: ['failed_precondition'],
      handle: ({ params, body, request }) => changeMemberRole(deps, requireOrg(request), params.user_id, body.role),
    }),
    'DELETE /api/v1/orgs/:handle/members/:user_id': route({
      params: memberParams,
      answer: removedMember,
      errors: ['failed_precondition'],
      handle: ({ params, request }) => removeMember(deps, requireOrg(request), params.user_id),
    }),
    'POST /api/v1/orgs/:handle/commerce-key': route({
      secrets: [{ path: ['commerce_public_key'], kind: 'commerce_key' }],
      params: orgParams,
      body: z.object({}).strict(),
      creates: true,
      status: 201,
      bodyExample: {},
      answer: commerceKey,
      handle: ({ request }) => rotateCommerceKey(deps, requireOrg(request)),
    }),
    'GET /api/v1/orgs/:handle/paygate-keys': route({
      params: orgParams,
      query: pageQuery,
      answer: paygateKeyPage,
      handle: ({ query, request }) => listPaygateKeys(deps, requireOrg(request), query),
    }),
    'POST /api/v1/orgs/:handle/paygate-keys': route({
      secrets: [{ path: ['key'], kind: 'paygate_key' }],
      params: orgParams,
      body: keyName,
      creates: true,
      status: 201,
      bodyExample: paygateKeyNameExample,
      answer: newPaygateKey,
      handle: ({ body, request }) => createPaygateKey(deps, requireOrg(request), body.name),
    }),
    'DELETE /api/v1/orgs/:handle/paygate-keys/:id': route({
      params: z.object({ handle: handleField, id: z.uuid() }),
      answer: revoked,
      errors: ['not_found'],
      handle: ({ params, request }) => revokePaygateKey(deps, requireOrg(request), params.id),
    }),
  };
}
