import { randomBytes } from 'node:crypto';
import { publicKeyFromDidKey } from '../auth/did-key.js';
import type { GatewayDeps } from '../deps.js';

/**
 * Issues a single-use nonce with a short expiry inside a SIWE-like message (EIP-4361's layout) bound
 * to this instance's domain. The wallet signs the message exactly as given.
 */
export async function createSignInChallenge(deps: GatewayDeps, did: string) {
  publicKeyFromDidKey(did);
  const url = new URL(deps.config.CTK_PUBLIC_URL);
  const nonce = randomBytes(16).toString('hex');
  const issuedAt = new Date();
  const expiresAt = new Date(issuedAt.getTime() + deps.config.CTK_SIGN_IN_CHALLENGE_TTL_SECONDS * 1000);
  const message = [
    `${url.host} wants you to sign in with your did:key:`,
    did,
    '',
    'Sign in to Commerce Toolkit.',
    '',
    `URI: ${url.origin}`,
    'Version: 1',
    `Nonce: ${nonce}`,
    `Issued At: ${issuedAt.toISOString()}`,
    `Expiration Time: ${expiresAt.toISOString()}`,
  ].join('\n');
  await deps.prisma.signInChallenge.create({ data: { did, nonce, message, expiresAt } });
  return { did, nonce, message, expires_at: expiresAt.toISOString() };
}
