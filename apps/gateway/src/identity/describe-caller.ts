import type { GatewayDeps } from '../deps.js';

/** Who the caller is: the user, the key they called with (never its secret) and their organisations. */
export async function describeCaller(deps: GatewayDeps, caller: { userId: string; apiKeyId: string }) {
  const [user, key] = await Promise.all([
    deps.prisma.user.findUniqueOrThrow({
      where: { id: caller.userId },
      include: { memberships: { include: { organization: true }, orderBy: { createdAt: 'asc' } } },
    }),
    deps.prisma.apiKey.findUniqueOrThrow({ where: { id: caller.apiKeyId } }),
  ]);
  return {
    id: user.id,
    name: user.name,
    email: user.email,
    did: user.did,
    created_at: user.createdAt.toISOString(),
    api_key: { id: key.id, name: key.name, prefix: key.prefix },
    organizations: user.memberships.map((m) => ({ handle: m.organization.handle, name: m.organization.name, role: m.role })),
  };
}
