import type { OrgContext } from '../auth/types.js';
import type { Role } from '../catalog/endpoints.js';
import type { GatewayDeps } from '../deps.js';
import { organizationView } from './organization-view.js';
import { paymailDomain } from '../paymail/paymail-domain.js';

/** The organisation the request resolved, as its members see it, with the caller's role. */
export async function getOrganization(deps: GatewayDeps, org: OrgContext & { role: Role }) {
  const row = await deps.prisma.organization.findUniqueOrThrow({ where: { id: org.id } });
  return { ...organizationView(row, paymailDomain(deps.config)), role: org.role };
}
