import { z } from 'zod';
import { requireOrg, requireUser } from '../auth/authenticate.js';
import type { GatewayDeps } from '../deps.js';
import { createApiKey, listApiKeys, revokeApiKey } from '../access/api-keys.js';
import { addMember, changeMemberRole, listMembers, removeMember } from '../access/members.js';
import { createPaygateKey, listPaygateKeys, revokePaygateKey, rotateCommerceKey } from '../access/org-keys.js';
import { handleField, orgParams } from '../identity/organization-fields.js';
import { messageAnswer } from '../contract/message-answer.js';
import { pageQuery } from './pagination.js';
import {
  keyNameExample,
  memberRoleExample,
  newMemberExample,
  paygateKeyNameExample,
  role,
  keyName,
  idParams,
  memberParams,
  newMember,
} from '../access/access-input.js';
import { route, type RouteDefinition } from './route-definition.js';

/** The answers: messages of the gateway's contract (proto/ctk/gateway/v1/access.proto), from its rows. */
const API_KEY = messageAnswer('ctk.gateway.v1.ApiKey');
const ISSUED_API_KEY = messageAnswer('ctk.gateway.v1.IssuedApiKey');
const REVOKED = messageAnswer('ctk.gateway.v1.Revoked');
const MEMBER = messageAnswer('ctk.gateway.v1.Member');
const ADDED_MEMBER = messageAnswer('ctk.gateway.v1.AddedMember');
const CHANGED_MEMBER = messageAnswer('ctk.gateway.v1.ChangedMember');
const REMOVED_MEMBER = messageAnswer('ctk.gateway.v1.RemovedMember');
const COMMERCE_KEY = messageAnswer('ctk.gateway.v1.CommerceKey');
const PAYGATE_KEY = messageAnswer('ctk.gateway.v1.PaygateKey');
const NEW_PAYGATE_KEY = messageAnswer('ctk.gateway.v1.NewPaygateKey');

/** What the spec's settings page would do: a user's API keys, members and roles, the organisation's keys. */
export function accessRoutes(deps: GatewayDeps): Record<string, RouteDefinition> {
  return {
    'GET /api/v1/me/api-keys': route({
      query: pageQuery,
      answer: API_KEY.page,
      handle: async ({ query, request }) => API_KEY.pageJson(await listApiKeys(deps, requireUser(request).userId, query)),
    }),
    'POST /api/v1/me/api-keys': route({
      secrets: [{ path: ['key'], kind: 'api_key' }],
      body: keyName,
      creates: true,
      status: 201,
      bodyExample: keyNameExample,
      answer: ISSUED_API_KEY.schema,
      handle: async ({ body, request }) => ISSUED_API_KEY.json(await createApiKey(deps, requireUser(request).userId, body.name)),
    }),
    'DELETE /api/v1/me/api-keys/:id': route({
      params: idParams,
      answer: REVOKED.schema,
      errors: ['not_found'],
      handle: async ({ params, request }) => REVOKED.json(await revokeApiKey(deps, requireUser(request).userId, params.id)),
    }),
    'GET /api/v1/orgs/:handle/members': route({
      params: orgParams,
      query: pageQuery,
      answer: MEMBER.page,
      handle: async ({ query, request }) => MEMBER.pageJson(await listMembers(deps, requireOrg(request), query)),
    }),
    'POST /api/v1/orgs/:handle/members': route({
      secrets: [{ path: ['api_key', 'key'], kind: 'api_key' }],
      params: orgParams,
      body: newMember,
      creates: true,
      status: 201,
      bodyExample: newMemberExample,
      answer: ADDED_MEMBER.schema,
      errors: ['already_exists'],
      handle: async ({ body, request }) => ADDED_MEMBER.json(await addMember(deps, requireOrg(request), body)),
    }),
    'PATCH /api/v1/orgs/:handle/members/:user_id': route({
      params: memberParams,
      body: z.object({ role }).strict(),
      bodyExample: memberRoleExample,
      answer: CHANGED_MEMBER.schema,
      errors: ['failed_precondition'],
      handle: async ({ params, body, request }) =>
        CHANGED_MEMBER.json(await changeMemberRole(deps, requireOrg(request), params.user_id, body.role)),
    }),
    'DELETE /api/v1/orgs/:handle/members/:user_id': route({
      params: memberParams,
      answer: REMOVED_MEMBER.schema,
      errors: ['failed_precondition'],
      handle: async ({ params, request }) => REMOVED_MEMBER.json(await removeMember(deps, requireOrg(request), params.user_id)),
    }),
    'POST /api/v1/orgs/:handle/commerce-key': route({
      secrets: [{ path: ['commerce_public_key'], kind: 'commerce_key' }],
      params: orgParams,
      body: z.object({}).strict(),
      creates: true,
      status: 201,
      bodyExample: {},
      answer: COMMERCE_KEY.schema,
      handle: async ({ request }) => COMMERCE_KEY.json(await rotateCommerceKey(deps, requireOrg(request))),
    }),
    'GET /api/v1/orgs/:handle/paygate-keys': route({
      params: orgParams,
      query: pageQuery,
      answer: PAYGATE_KEY.page,
      handle: async ({ query, request }) => PAYGATE_KEY.pageJson(await listPaygateKeys(deps, requireOrg(request), query)),
    }),
    'POST /api/v1/orgs/:handle/paygate-keys': route({
      secrets: [{ path: ['key'], kind: 'paygate_key' }],
      params: orgParams,
      body: keyName,
      creates: true,
      status: 201,
      bodyExample: paygateKeyNameExample,
      answer: NEW_PAYGATE_KEY.schema,
      handle: async ({ body, request }) => NEW_PAYGATE_KEY.json(await createPaygateKey(deps, requireOrg(request), body.name)),
    }),
    'DELETE /api/v1/orgs/:handle/paygate-keys/:id': route({
      params: z.object({ handle: handleField, id: z.uuid() }),
      answer: REVOKED.schema,
      errors: ['not_found'],
      handle: async ({ params, request }) => REVOKED.json(await revokePaygateKey(deps, requireOrg(request), params.id)),
    }),
  };
}
