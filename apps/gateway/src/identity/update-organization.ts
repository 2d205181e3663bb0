import { AppError, isUniqueViolation, type CallOptions } from '@ctk/shared';
import type { AccessOrg } from '../auth/types.js';
import type { Role } from '../catalog/endpoints.js';
import type { GatewayDeps } from '../deps.js';
import { orgRef } from '../routes/service-call.js';
import { organizationData, type OrganizationUpdate } from './organization-fields.js';
import { organizationView } from './organization-view.js';
import { checkWithOwners, readOwnerFacts, writeToOwners } from './owner-facts.js';

/**
 * Changes the organisation's settings: the gateway's own fields here, its wallet at p2p and its tax
 * settings at books (decision 0028). Every owner checks its part before anything is written, so a refused
 * field changes nothing; the owners write inside the gateway's transaction, so an owner failing undoes the
 * gateway's part too. A paymail alias another organisation holds is a 409.
 */
export async function updateOrganization(
  deps: GatewayDeps,
  org: AccessOrg & { role: Role },
  fields: OrganizationUpdate,
  options: CallOptions,
) {
  const ref = orgRef(org);
  const [, [current]] = await Promise.all([checkWithOwners(deps, ref, fields, options), readOwnerFacts(deps, [org.id], options)]);
  try {
    const { row, facts } = await deps.prisma.$transaction(
      async (tx) => {
        const row = await tx.organization.update({ where: { id: org.id }, data: organizationData(fields) });
        return { row, facts: await writeToOwners(deps, ref, fields, options, current!) };
      },
      { maxWait: 20_000, timeout: 20_000 },
    );
    deps.credentials.forget();
    return { ...organizationView(deps.config, row, facts), role: org.role };
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError('already_exists', `The paymail alias "${fields.paymail_alias}" is taken.`);
    throw error;
  }
}
