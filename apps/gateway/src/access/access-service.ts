import { validate } from '@ctk/shared';
import type {
  AddMemberRequest,
  ChangeMemberRoleRequest,
  CreateApiKeyRequest,
  CreatePaygateKeyRequest,
  ListApiKeysRequest,
  ListMembersRequest,
  ListPaygateKeysRequest,
  RemoveMemberRequest,
  RevokeApiKeyRequest,
  RevokePaygateKeyRequest,
  RotateCommerceKeyRequest,
} from '@ctk/proto/ctk/gateway/v1/access';
import { z } from 'zod';
import type { AccessOrg } from '../auth/types.js';
import type { Role } from '../catalog/endpoints.js';
import type { GatewayDeps } from '../deps.js';
import { emailField, nameField } from '../routes/text-fields.js';
import { createApiKey, listApiKeys, revokeApiKey } from './api-keys.js';
import { addMember, changeMemberRole, listMembers, removeMember } from './members.js';
import { createPaygateKey, listPaygateKeys, revokePaygateKey, rotateCommerceKey } from './org-keys.js';

const role = z.enum(['owner', 'admin', 'staff']);
const keyName = z.object({ name: nameField(100).default('API key') });
const newMember = z.union([
  z.object({ user_id: z.uuid(), role }).strict(),
  z.object({ name: nameField(120), email: emailField.optional(), role }).strict(),
]);

/** The fields the caller gave, by their JSON names: what a rule names is what the caller sent. */
const given = (fields: Record<string, unknown>) => Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));

/** The organisation of a request, with the caller's role in it (only an owner grants the owner role). */
export const orgOf = (request: { org?: { id: string; handle: string } | undefined; callerRole?: string }): AccessOrg => ({
  id: request.org!.id,
  handle: request.org!.handle,
  role: (request.callerRole || null) as Role | null,
});

/** A page of rows as a list response: the list's field and the next page's cursor. */
export const listed = <K extends string, T>(field: K, page: { data: T[]; next_cursor: string | null }) =>
  ({ [field]: page.data, nextCursor: page.next_cursor ?? '' }) as Record<K, T[]> & { nextCursor: string };

/**
 * The access service (proto/ctk/gateway/v1/access.proto), served in the gateway's process: a user's API
 * keys, an organisation's members and roles, its commerce and payment-gate keys. The gateway checked the
 * request's shape; the rules of names, emails and roles are checked here.
 */
export function accessService(deps: GatewayDeps) {
  return {
    listApiKeys: async ({ userId, limit, cursor }: ListApiKeysRequest) =>
      listed('apiKeys', await listApiKeys(deps, userId, { limit, cursor })),
    createApiKey: async ({ userId, name }: CreateApiKeyRequest) => ({
      apiKey: await createApiKey(deps, userId, validate(keyName, given({ name }), 'body').name),
    }),
    revokeApiKey: async ({ userId, id }: RevokeApiKeyRequest) => ({ revoked: await revokeApiKey(deps, userId, id) }),
    listMembers: async ({ org, limit, cursor }: ListMembersRequest) =>
      listed('members', await listMembers(deps, orgOf({ org }), { limit, cursor })),
    addMember: async (request: AddMemberRequest) => {
      const member = given({ user_id: request.userId, name: request.name, email: request.email, role: request.role });
      return { added: await addMember(deps, orgOf(request), validate(newMember, member, 'body')) };
    },
    changeMemberRole: async (request: ChangeMemberRoleRequest) => ({
      changed: await changeMemberRole(
        deps,
        orgOf(request),
        request.userId,
        validate(z.object({ role }), { role: request.role }, 'body').role,
      ),
    }),
    removeMember: async (request: RemoveMemberRequest) => ({ removed: await removeMember(deps, orgOf(request), request.userId) }),
    rotateCommerceKey: async ({ org }: RotateCommerceKeyRequest) => ({ commerceKey: await rotateCommerceKey(deps, orgOf({ org })) }),
    listPaygateKeys: async ({ org, limit, cursor }: ListPaygateKeysRequest) =>
      listed('paygateKeys', await listPaygateKeys(deps, orgOf({ org }), { limit, cursor })),
    createPaygateKey: async ({ org, name }: CreatePaygateKeyRequest) => ({
      paygateKey: await createPaygateKey(deps, orgOf({ org }), validate(keyName, given({ name }), 'body').name),
    }),
    revokePaygateKey: async ({ org, id }: RevokePaygateKeyRequest) => ({ revoked: await revokePaygateKey(deps, orgOf({ org }), id) }),
  };
}
