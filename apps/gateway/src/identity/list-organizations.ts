import type { CallOptions } from '@ctk/shared';
import type { GatewayDeps } from '../deps.js';
import { organizationView } from './organization-view.js';
import { readOwnerFacts } from './owner-facts.js';
import { afterCursor, NEWEST_FIRST, toPage, type PageQuery } from '../routes/pagination.js';
import { paymailDomain } from '../paymail/paymail-domain.js';

/** The organisations a user is a member of, newest membership first, each with the user's role. */
export async function listOrganizations(deps: GatewayDeps, userId: string, page: PageQuery, options: CallOptions) {
  const rows = await deps.prisma.membership.findMany({
    where: { userId, ...afterCursor(page.cursor) },
    orderBy: NEWEST_FIRST,
    take: page.limit + 1,
    include: { organization: true },
  });
  const shown = rows.slice(0, page.limit).map((m) => m.organization.id);
  const facts = new Map((await readOwnerFacts(deps, shown, options)).map((f, index) => [shown[index], f]));
  const domain = paymailDomain(deps.config);
  return toPage(rows, page.limit, (m) => ({ ...organizationView(m.organization, domain, facts.get(m.organization.id)!), role: m.role }));
}
