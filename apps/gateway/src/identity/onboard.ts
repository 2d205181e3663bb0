import { randomUUID } from 'node:crypto';
import type { CallOptions } from '@ctk/shared';
import type { GatewayDeps } from '../deps.js';
import type { Prisma } from '../generated/prisma/client.js';
import { createOrganization } from './create-organization.js';
import { issueApiKey } from '../access/issue-api-key.js';
import type { OrganizationFields } from './organization-fields.js';
import { organizationView } from './organization-view.js';
import { checkWithOwners, noFacts, writeToOwners } from './owner-facts.js';

export type NewUser = { name?: string | undefined; email?: string | undefined };

/**
 * One call to start: without a key it creates the user, the organisation, the owner membership and
 * the user's first API key (returned this once); with a key it adds an organisation to the caller.
 * All in one transaction, with the facts p2p and books own checked by them first and written to them
 * last inside it: nothing is half-created.
 */
export async function onboard(
  deps: GatewayDeps,
  callerUserId: string | undefined,
  fields: OrganizationFields,
  options: CallOptions,
  user: NewUser = {},
) {
  const id = randomUUID();
  await checkWithOwners(deps, { id, handle: fields.handle ?? '' }, fields, options);
  const result = await deps.prisma.$transaction(
    async (tx) => {
      const userId = callerUserId ?? (await createUserKeepingEmailsPrivate(tx, user)).id;
      const org = await createOrganization(tx, userId, fields, id);
      const apiKey = callerUserId ? undefined : await issueApiKey(tx, userId, 'onboarding');
      // Last, so that a refusal above (a handle or alias taken) reaches no owner.
      const facts = await writeToOwners(deps, { id, handle: org.handle }, fields, options, noFacts(id));
      return { org, userId, apiKey, facts };
    },
    { maxWait: 20_000, timeout: 20_000 },
  );
  deps.credentials.forget();
  return {
    user: { id: result.userId },
    organization: organizationView(deps.config, result.org, result.facts),
    role: 'owner',
    apiKey: result.apiKey,
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
