import type { GatewayDeps } from '../deps.js';
import { organizationView } from './organization-view.js';
import { afterCursor, NEWEST_FIRST, toPage, type PageQuery } from '../routes/pagination.js';
import { paymailDomain } from '../paymail/paymail-domain.js';

/** The organisations a user is a member of, newest membership first, each with the user's role. */
export async function listOrganizations(deps: GatewayDeps, userId: string, page: PageQuery) {
  const rows = await deps.prisma.membership.findMany({
    where: { userId, ...afterCursor(page.cursor) },
    orderBy: NEWEST_FIRST,
    take: page.limit + 1,
    include: { organization: true },
  });
  const domain = paymailDomain(deps.config);
  return toPage(rows, page.limit, (m) => ({ ...organizationView(m.organization, domain), role: m.role }));
}
