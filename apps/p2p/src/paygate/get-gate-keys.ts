import type { GetGateKeysResponse } from '@ctk/proto/ctk/p2p/v1/p2p';
import type { GateDeps } from './gate-deps.js';

/** How long a middleware may keep the published document before it reads it again. */
const MAX_AGE_SECONDS = 30;

/**
 * What a middleware needs to check credentials without a call: the public key they are signed with, and
 * what is revoked while it could still be used: removed resources (all their credentials) and single
 * revoked payments of live resources. Expired credentials drop out of the lists.
 */
export async function getGateKeys(deps: GateDeps): Promise<GetGateKeysResponse> {
  const key = await deps.signingKey();
  const revoked = await deps.prisma.gatePayment.findMany({
    where: { revokedAt: { not: null }, expiresAt: { gt: new Date() } },
    select: { id: true, resourceId: true },
  });
  const resourceIds = [...new Set(revoked.map((payment) => payment.resourceId))];
  const removed = await deps.prisma.gateResource.findMany({
    where: { id: { in: resourceIds }, deletedAt: { not: null } },
    select: { id: true },
  });
  const removedIds = new Set(removed.map((resource) => resource.id));
  return {
    keys: [{ kid: key.kid, x: key.x }],
    revokedResources: [...removedIds],
    revokedCredentials: revoked.filter((payment) => !removedIds.has(payment.resourceId)).map((payment) => payment.id),
    maxAgeSeconds: MAX_AGE_SECONDS,
  };
}
