import { randomBytes } from 'node:crypto';
import { publicKeyFromDidKey } from '../auth/did-key.js';
import type { GatewayDeps } from '../deps.js';
import { challengeStatement, type ChallengePurpose } from './key-challenge.js';

/**
 * Issues a single-use nonce with a short expiry inside a SIWE-like message (EIP-4361's layout) bound
 * to this instance's domain. The wallet signs the message exactly as given. Its statement says what the
 * signature will prove the key for: signing in, or binding a card to the key (decision 0024).
 */
export async function createSignInChallenge(deps: GatewayDeps, did: string, purpose: ChallengePurpose = 'sign_in') {
  await publicKeyFromDidKey(did);
  const url = new URL(deps.config.CTK_PUBLIC_URL);
  const nonce = randomBytes(16).toString('hex');
  const issuedAt = new Date();
  const expiresAt = new Date(issuedAt.getTime() + deps.config.CTK_SIGN_IN_CHALLENGE_TTL_SECONDS * 1000);
  const message = [
    `${url.host} wants you to sign in with your did:key:`,
    did,
    '',
    challengeStatement(purpose),
    '',
    `URI: ${url.origin}`,
    'Version: 1',
    `Nonce: ${nonce}`,
    `Issued At: ${issuedAt.toISOString()}`,
    `Expiration Time: ${expiresAt.toISOString()}`,
  ].join('\n');
  return deps.prisma.signInChallenge.create({ data: { did, nonce, message, expiresAt } });
}
