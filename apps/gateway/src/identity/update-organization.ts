import { AppError, isUniqueViolation } from '@ctk/shared';
import type { OrgContext } from '../auth/types.js';
import type { Role } from '../catalog/endpoints.js';
import type { GatewayDeps } from '../deps.js';
import { organizationData, type OrganizationUpdate } from './organization-fields.js';
import { organizationView } from './organization-view.js';
import { paymailDomain } from '../paymail/paymail-domain.js';

/** Changes the organisation's settings; a paymail alias another organisation holds is a 409. */
export async function updateOrganization(deps: GatewayDeps, org: OrgContext & { role: Role }, fields: OrganizationUpdate) {
  try {
    const row = await deps.prisma.organization.update({ where: { id: org.id }, data: organizationData(fields) });
    deps.credentials.forget();
    return { ...organizationView(row, paymailDomain(deps.config)), role: org.role };
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError('already_exists', `The paymail alias "${fields.paymail_alias}" is taken.`);
    throw error;
  }
}
