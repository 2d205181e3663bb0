import type { PublicKey } from '@bsv/sdk';
import { AppError } from '@ctk/shared';
import { publicKeyFromDidKey } from '../auth/did-key.js';
import type { GatewayDeps } from '../deps.js';

/**
 * What a challenge's signature proves the key for (docs/decisions/0024-proof-holds-and-privacy.md): signing in,
 * or binding a card to the key's address. The message says which, so a wallet shows its holder what they sign,
 * and a signature made for one is refused for the other.
 */
export const CHALLENGE_PURPOSES = ['sign_in', 'bind_card'] as const;
export type ChallengePurpose = (typeof CHALLENGE_PURPOSES)[number];

const STATEMENTS: Record<ChallengePurpose, string> = {
  sign_in: 'Sign in to Commerce Toolkit.',
  bind_card: 'Bind this key and its address to a card at Commerce Toolkit.',
};

/** The statement line of a challenge's message (EIP-4361's layout: the fourth line). */
export function challengeStatement(purpose: ChallengePurpose): string {
  return STATEMENTS[purpose];
}

/**
 * Spends the challenge `nonce` and checks `signature` over its message with the did's key (ECDSA over
 * SHA-256, DER hex). The nonce is spent by the first attempt, right or wrong, so it cannot be replayed or
 * guessed at; a challenge issued for another purpose is refused. Answers the did and its public key.
 */
export async function spendKeyChallenge(
  deps: GatewayDeps,
  input: { nonce: string; signature: string },
  purpose: ChallengePurpose,
): Promise<{ did: string; publicKey: PublicKey }> {
  const now = new Date();
  const spent = await deps.prisma.signInChallenge.updateMany({
    where: { nonce: input.nonce, usedAt: null, expiresAt: { gt: now } },
    data: { usedAt: now },
  });
  if (spent.count !== 1) throw new AppError('invalid_signature', 'Unknown, expired or already used nonce: ask for a new challenge.');
  const challenge = await deps.prisma.signInChallenge.findUniqueOrThrow({ where: { nonce: input.nonce } });
  if (challenge.message.split('\n')[3] !== STATEMENTS[purpose]) {
    throw new AppError(
      'invalid_signature',
      `This challenge was not asked for ${purpose}: ask POST /api/auth/challenge with "purpose": "${purpose}".`,
    );
  }
  const publicKey = await publicKeyFromDidKey(challenge.did);
  if (!(await signatureMatches(publicKey, challenge.message, input.signature))) {
    throw new AppError('invalid_signature', "The signature does not verify against the did's key over the challenge message.");
  }
  return { did: challenge.did, publicKey };
}

async function signatureMatches(publicKey: PublicKey, message: string, signatureHex: string): Promise<boolean> {
  const { Signature } = await import('@bsv/sdk');
  try {
    return publicKey.verify(message, Signature.fromDER(signatureHex, 'hex'), 'utf8');
  } catch {
    return false;
  }
}
