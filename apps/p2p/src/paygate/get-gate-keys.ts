import type { GetGateKeysResponse } from '@ctk/proto/ctk/p2p/v1/p2p';
import type { GateDeps } from './gate-deps.js';

/** How long a middleware may keep the published document before it reads it again. */
const MAX_AGE_SECONDS = 30;

// Revoked and still unexpired: removed resources (all their credentials at once), and single revoked
// payments of live resources.
const REVOKED_RESOURCES = `SELECT DISTINCT p.resource_id AS id FROM gate_payments p JOIN gate_resources r ON r.id = p.resource_id
  WHERE p.revoked_at IS NOT NULL AND p.expires_at > now() AND r.deleted_at IS NOT NULL`;
const REVOKED_CREDENTIALS = `SELECT p.id FROM gate_payments p JOIN gate_resources r ON r.id = p.resource_id
  WHERE p.revoked_at IS NOT NULL AND p.expires_at > now() AND r.deleted_at IS NULL`;

/**
 * What a middleware needs to check credentials without a call: the public key they are signed with, and
 * what is revoked while it could still be used. Expired credentials drop out of the lists.
 */
export async function getGateKeys(deps: GateDeps): Promise<GetGateKeysResponse> {
  const key = await deps.signingKey();
  const [resources, credentials] = await Promise.all([
    deps.prisma.$queryRawUnsafe<{ id: string }[]>(REVOKED_RESOURCES),
    deps.prisma.$queryRawUnsafe<{ id: string }[]>(REVOKED_CREDENTIALS),
  ]);
  return {
    keys: [{ kid: key.kid, x: key.x }],
    revokedResources: resources.map((row) => row.id),
    revokedCredentials: credentials.map((row) => row.id),
    maxAgeSeconds: MAX_AGE_SECONDS,
  };
}
