import type { GetGateKeysResponse } from '@ctk/proto/ctk/p2p/v1/p2p';
import { findRevokedCredentialIds, findRevokedResourceIds } from '../data/gate-payment-repository.js';
import type { GateDeps } from './gate-deps.js';

/** How long a middleware may keep the published document before it reads it again. */
const MAX_AGE_SECONDS = 30;

/**
 * What a middleware needs to check credentials without a call: the public key they are signed with (a JWK
 * under this instance's name), and
 * what is revoked while it could still be used: removed resources (all their credentials) and single
 * revoked payments of live resources. Expired credentials drop out of the lists.
 */
export async function getGateKeys(deps: GateDeps, publicUrl: string): Promise<GetGateKeysResponse> {
  const key = await deps.signingKey();
  const [revokedResources, revokedCredentials] = await Promise.all([
    findRevokedResourceIds(deps.prisma),
    findRevokedCredentialIds(deps.prisma),
  ]);
  return {
    published: {
      issuer: publicUrl.replace(/\/$/, ''),
      keys: [{ kid: key.kid, alg: 'EdDSA', crv: 'Ed25519', x: key.x }],
      revoked: { resources: revokedResources, credentials: revokedCredentials },
      maxAgeSeconds: MAX_AGE_SECONDS,
    },
  };
}
