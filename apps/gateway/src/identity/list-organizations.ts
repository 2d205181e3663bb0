import type { CallOptions } from '@ctk/shared';
import type { GatewayDeps } from '../deps.js';
import { organizationView } from './organization-view.js';
import { readOwnerFacts } from './owner-facts.js';
import { newestFirst, toPage, type PageQuery } from '../routes/pagination.js';

/** The organisations a user is a member of, newest membership first, each with the user's role. */
export async function listOrganizations(deps: GatewayDeps, userId: string, page: PageQuery, options: CallOptions) {
  const rows = await deps.prisma.membership.findMany({ ...newestFirst(page, { userId }), include: { organization: true } });
  const shown = rows.slice(0, page.limit).map((m) => m.organization.id);
  const facts = new Map((await readOwnerFacts(deps, shown, options)).map((f, index) => [shown[index], f]));
  return toPage(rows, page.limit, (m) => ({
    ...organizationView(deps.config, m.organization, facts.get(m.organization.id)!),
    role: m.role,
  }));
}
