import type { GatewayDeps } from '../deps.js';

/** Who the caller is (the contract's Me): the user, the key they called with (never its secret) and their organisations. */
export async function describeCaller(deps: GatewayDeps, caller: { userId: string; apiKeyId: string }) {
  const [user, key] = await Promise.all([
    deps.prisma.user.findUniqueOrThrow({
      where: { id: caller.userId },
      include: { memberships: { include: { organization: true }, orderBy: { createdAt: 'asc' } } },
    }),
    deps.prisma.apiKey.findUniqueOrThrow({ where: { id: caller.apiKeyId } }),
  ]);
  return {
    ...user,
    apiKey: key,
    organizations: user.memberships.map((m) => ({ ...m.organization, role: m.role })),
  };
}
