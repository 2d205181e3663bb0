import type { ShopProfile } from '@ctk/proto/ctk/federation/v1/federation';
import { AppError } from '@ctk/shared';
import type { GatewayDeps } from '../deps.js';
import { paymailDomain } from '../paymail/paymail-domain.js';

/** What an organisation's feed and open sign show of it, as the gateway keeps it now (its time zone, UTC until chosen). */
export async function shopProfile(deps: Pick<GatewayDeps, 'prisma' | 'config'>, organizationId: string): Promise<ShopProfile> {
  const org = await deps.prisma.organization.findUnique({
    where: { id: organizationId },
    select: { name: true, timeZone: true, latitude: true, longitude: true, category: true, paymailAlias: true, avatarUrl: true },
  });
  if (!org) throw new AppError('not_found', 'No such organisation.');
  return {
    name: org.name,
    timeZone: org.timeZone ?? 'UTC',
    latitude: org.latitude ?? undefined,
    longitude: org.longitude ?? undefined,
    category: org.category ?? undefined,
    paymail: org.paymailAlias ? `${org.paymailAlias}@${paymailDomain(deps.config)}` : undefined,
    avatarUrl: org.avatarUrl ?? undefined,
  };
}
