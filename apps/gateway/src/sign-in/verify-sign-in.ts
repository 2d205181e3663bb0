import { Signature } from '@bsv/sdk';
import { AppError } from '@ctk/shared';
import { publicKeyFromDidKey } from '../auth/did-key.js';
import type { GatewayDeps } from '../deps.js';
import { issueApiKey } from '../access/issue-api-key.js';

/**
 * Checks the signature over the challenge's message with the did's key and returns a new API key for
 * the user of that did (created on first sign-in). The nonce is spent by the first attempt, right or
 * wrong, so it cannot be replayed or guessed at.
 */
export async function verifySignIn(deps: GatewayDeps, input: { nonce: string; signature: string }) {
  const now = new Date();
  const spent = await deps.prisma.signInChallenge.updateMany({
    where: { nonce: input.nonce, usedAt: null, expiresAt: { gt: now } },
    data: { usedAt: now },
  });
  if (spent.count !== 1) throw new AppError('invalid_signature', 'Unknown, expired or already used nonce: ask for a new challenge.');
  const challenge = await deps.prisma.signInChallenge.findUniqueOrThrow({ where: { nonce: input.nonce } });
  if (!signatureMatches(challenge.did, challenge.message, input.signature)) {
    throw new AppError('invalid_signature', "The signature does not verify against the did's key over the challenge message.");
  }
  return deps.prisma.$transaction(async (tx) => {
    const user = await tx.user.upsert({ where: { did: challenge.did }, create: { did: challenge.did }, update: {} });
    const apiKey = await issueApiKey(tx, user.id, 'did:key sign-in');
    return { user: { id: user.id, did: user.did }, api_key: apiKey };
  });
}

function signatureMatches(did: string, message: string, signatureHex: string): boolean {
  try {
    return publicKeyFromDidKey(did).verify(message, Signature.fromDER(signatureHex, 'hex'), 'utf8');
  } catch {
    return false;
  }
}
