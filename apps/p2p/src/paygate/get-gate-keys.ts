import type { GetGateKeysResponse } from '@ctk/proto/ctk/p2p/v1/p2p';
import type { GateDeps } from './gate-deps.js';

/** How long a middleware may keep the published document before it reads it again. */
const MAX_AGE_SECONDS = 30;

// Removed resources with a credential that could still be used, named once each (the database does the
// distinct, so a removed resource with a hundred thousand live credentials costs one row, not a hundred
// thousand, on an endpoint anyone may call). Every unexpired payment counts, revoked or not: one recorded
// while its resource was being removed was never marked revoked, and must not buy the path priced again.
const REMOVED_RESOURCES = `SELECT DISTINCT p.resource_id::text AS id FROM gate_payments p
  JOIN gate_resources r ON r.id = p.resource_id
  WHERE r.deleted_at IS NOT NULL AND p.expires_at > now()`;

// Single revoked credentials of live resources.
const REVOKED_CREDENTIALS = `SELECT p.id::text AS id FROM gate_payments p
  JOIN gate_resources r ON r.id = p.resource_id
  WHERE p.revoked_at IS NOT NULL AND r.deleted_at IS NULL AND p.expires_at > now()`;

/**
 * What a middleware needs to check credentials without a call: the public key they are signed with, and
 * what is revoked while it could still be used: removed resources (all their credentials) and single
 * revoked payments of live resources. Expired credentials drop out of the lists.
 */
export async function getGateKeys(deps: GateDeps): Promise<GetGateKeysResponse> {
  const key = await deps.signingKey();
  const [removed, revoked] = await Promise.all([
    deps.prisma.$queryRawUnsafe<Array<{ id: string }>>(REMOVED_RESOURCES),
    deps.prisma.$queryRawUnsafe<Array<{ id: string }>>(REVOKED_CREDENTIALS),
  ]);
  return {
    keys: [{ kid: key.kid, x: key.x }],
    revokedResources: removed.map((row) => row.id),
    revokedCredentials: revoked.map((row) => row.id),
    maxAgeSeconds: MAX_AGE_SECONDS,
  };
}
