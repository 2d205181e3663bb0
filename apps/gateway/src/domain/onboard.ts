import { AppError, isUniqueViolation } from '@ctk/shared';
import type { GatewayDeps } from '../deps.js';
import { createOrganization } from './create-organization.js';
import { issueApiKey } from './issue-api-key.js';
import type { OrganizationFields } from './organization-fields.js';
import { organizationView } from './organization-view.js';
import { paymailDomain } from './paymail-domain.js';

export type NewUser = { name?: string | undefined; email?: string | undefined };

/**
 * One call to start: without a key it creates the user, the organisation, the owner membership and
 * the user's first API key (returned this once); with a key it adds an organisation to the caller.
 * All in one transaction: nothing is half-created.
 */
export async function onboard(deps: GatewayDeps, callerUserId: string | undefined, fields: OrganizationFields, user: NewUser = {}) {
  const result = await deps.prisma.$transaction(async (tx) => {
    if (callerUserId) {
      const org = await createOrganization(tx, callerUserId, fields);
      return { org, userId: callerUserId, apiKey: undefined };
    }
    const created = await tx.user.create({ data: { name: user.name ?? null, email: user.email ?? null } }).catch((error: unknown) => {
      if (isUniqueViolation(error))
        throw new AppError(
          'already_exists',
          'An account with this email already exists: use its API key (send it as Authorization: Bearer) to add an organisation.',
        );
      throw error;
    });
    const org = await createOrganization(tx, created.id, fields);
    const apiKey = await issueApiKey(tx, created.id, 'onboarding');
    return { org, userId: created.id, apiKey };
  });
  deps.credentials.forget();
  return {
    user: { id: result.userId },
    organization: organizationView(result.org, paymailDomain(deps.config)),
    role: 'owner' as const,
    ...(result.apiKey ? { api_key: result.apiKey } : {}),
  };
}
