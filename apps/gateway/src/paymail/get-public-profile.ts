import type { GatewayDeps } from '../deps.js';

/** A paymail's public profile (bsvalias f12f968c92d6): the organisation's name and picture. */
export async function getPublicProfile(deps: Pick<GatewayDeps, 'prisma'>, organizationId: string) {
  const row = await deps.prisma.organization.findUniqueOrThrow({ where: { id: organizationId }, select: { name: true, avatarUrl: true } });
  return { name: row.name, avatar: row.avatarUrl ?? '' };
}
