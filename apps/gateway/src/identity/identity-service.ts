import type {
  CreateOrganizationRequest,
  DescribeCallerRequest,
  GetOrganizationRequest,
  ListOrganizationsRequest,
  OnboardRequest,
  UpdateOrganizationRequest,
} from '@ctk/proto/ctk/gateway/v1/identity';
import { validate, type CallOptions } from '@ctk/shared';
import { z } from 'zod';
import { listed, orgOf } from '../access/access-service.js';
import type { Role } from '../catalog/endpoints.js';
import type { GatewayDeps } from '../deps.js';
import { emailField, nameField } from '../routes/text-fields.js';
import { describeCaller } from './describe-caller.js';
import { getOrganization } from './get-organization.js';
import { listOrganizations } from './list-organizations.js';
import { onboard } from './onboard.js';
import { organizationFields, organizationUpdate } from './organization-fields.js';
import { updateOrganization } from './update-organization.js';

const onboarding = organizationFields.extend({
  user: z
    .object({ name: nameField(120).optional(), email: emailField.optional() })
    .strict()
    .optional(),
});

/** The fields the caller gave, by their JSON names (`paymail_alias`): what a rule names is what the caller sent. */
const given = (fields: object): Record<string, unknown> =>
  Object.fromEntries(
    Object.entries(fields)
      .filter(([, value]) => value !== undefined)
      .map(([key, value]) => [key.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`), value]),
  );

/** The organisation of a request with the caller's role in it, which a member's answer shows. */
const memberOrg = (request: { org?: { id: string; handle: string } | undefined; callerRole: string }) =>
  orgOf(request) as ReturnType<typeof orgOf> & { role: Role };

/**
 * Onboarding, organisations and the caller (proto/ctk/gateway/v1/identity.proto), served in the gateway's
 * process. The gateway checked the request's shape; the rules of names, handles, aliases and places are
 * checked here, and p2p and books check the wallet and the tax settings they keep.
 */
export function identityService(deps: GatewayDeps) {
  return {
    onboard: async ({ createdBy, user, ...fields }: OnboardRequest, options: CallOptions) => {
      const { user: newUser, ...organization } = validate(onboarding, { ...given(fields), ...(user ? { user: given(user) } : {}) }, 'body');
      return { onboarded: await onboard(deps, createdBy || undefined, organization, options, newUser) };
    },
    createOrganization: async ({ userId, ...fields }: CreateOrganizationRequest, options: CallOptions) => ({
      onboarded: await onboard(deps, userId, validate(organizationFields, given(fields), 'body'), options),
    }),
    listOrganizations: async ({ userId, limit, cursor }: ListOrganizationsRequest, options: CallOptions) =>
      listed('organizations', await listOrganizations(deps, userId, { limit, cursor }, options)),
    getOrganization: async (request: GetOrganizationRequest, options: CallOptions) => ({
      organization: await getOrganization(deps, memberOrg(request), options),
    }),
    updateOrganization: async ({ org, callerRole, clearPricesIncludeTax, ...fields }: UpdateOrganizationRequest, options: CallOptions) => {
      const change = { ...given(fields), ...(clearPricesIncludeTax ? { prices_include_tax: null } : {}) };
      const updated = await updateOrganization(deps, memberOrg({ org, callerRole }), validate(organizationUpdate, change, 'body'), options);
      return { organization: updated };
    },
    describeCaller: async ({ userId, apiKeyId }: DescribeCallerRequest) => ({ me: await describeCaller(deps, { userId, apiKeyId }) }),
  };
}
