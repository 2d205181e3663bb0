import type { GetGateKeysResponse } from '@ctk/proto/ctk/p2p/v1/p2p';
import { findRevokedCredentialIds, findRevokedResourceIds } from '../data/gate-payment-repository.js';
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
  const [revokedResources, revokedCredentials] = await Promise.all([
    findRevokedResourceIds(deps.prisma),
    findRevokedCredentialIds(deps.prisma),
  ]);
  return {
    keys: [{ kid: key.kid, x: key.x }],
    revokedResources,
    revokedCredentials,
    maxAgeSeconds: MAX_AGE_SECONDS,
  };
}
