import { randomUUID } from 'node:crypto';
import type { GatewayDeps } from '../deps.js';
import type { Prisma } from '../generated/prisma/client.js';
import { createOrganization } from './create-organization.js';
import { issueApiKey } from '../access/issue-api-key.js';
import type { OrganizationFields } from './organization-fields.js';
import { organizationView } from './organization-view.js';
import { paymailDomain } from '../paymail/paymail-domain.js';

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
    const created = await createUserKeepingEmailsPrivate(tx, user);
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

/**
 * A new user with the email attached when no account has it, else without it: anonymous onboarding
 * must not tell anyone whether an email is registered, so both answer the same (decision 0011).
 * `ON CONFLICT DO NOTHING` (skipDuplicates) decides in one statement, so two onboardings racing for one
 * email neither fail nor both get it.
 */
async function createUserKeepingEmailsPrivate(tx: Prisma.TransactionClient, user: NewUser) {
  const id = randomUUID();
  const name = user.name ?? null;
  const attached = user.email ? await tx.user.createMany({ data: [{ id, name, email: user.email }], skipDuplicates: true }) : { count: 0 };
  if (attached.count === 0) await tx.user.create({ data: { id, name } });
  return { id };
}
