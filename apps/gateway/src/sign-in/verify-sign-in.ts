import type { GatewayDeps } from '../deps.js';
import { issueApiKey } from '../access/issue-api-key.js';
import { spendKeyChallenge } from './key-challenge.js';

/**
 * Checks the signature over the challenge's message with the did's key and returns a new API key for
 * the user of that did (created on first sign-in), working for CTK_SIGN_IN_KEY_HOURS: a session. The nonce is spent by the first attempt, right or
 * wrong, so it cannot be replayed or guessed at.
 */
export async function verifySignIn(deps: GatewayDeps, input: { nonce: string; signature: string }) {
  const { did } = await spendKeyChallenge(deps, input, 'sign_in');
  return deps.prisma.$transaction(async (tx) => {
    const user = await tx.user.upsert({ where: { did }, create: { did }, update: {} });
    const expiresAt = new Date(Date.now() + deps.config.CTK_SIGN_IN_KEY_HOURS * 3_600_000);
    const apiKey = await issueApiKey(tx, user.id, 'did:key sign-in', expiresAt);
    return { user, apiKey };
  });
}
