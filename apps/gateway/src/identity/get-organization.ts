import type { CallOptions } from '@ctk/shared';
import type { AccessOrg } from '../auth/types.js';
import type { Role } from '../catalog/endpoints.js';
import type { GatewayDeps } from '../deps.js';
import { organizationView } from './organization-view.js';
import { readOwnerFacts } from './owner-facts.js';

/** The organisation the request resolved, as its members see it, with the caller's role. */
export async function getOrganization(deps: GatewayDeps, org: AccessOrg & { role: Role }, options: CallOptions) {
  const [row, [facts]] = await Promise.all([
    deps.prisma.organization.findUniqueOrThrow({ where: { id: org.id } }),
    readOwnerFacts(deps, [org.id], options),
  ]);
  return { ...organizationView(deps.config, row, facts!), role: org.role };
}
