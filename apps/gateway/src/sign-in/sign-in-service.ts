import { validate } from '@ctk/shared';
import type { CreateSignInChallengeRequest, VerifySignInRequest } from '@ctk/proto/ctk/gateway/v1/sign_in';
import { z } from 'zod';
import type { GatewayDeps } from '../deps.js';
import { createSignInChallenge } from './create-sign-in-challenge.js';
import { CHALLENGE_PURPOSES } from './key-challenge.js';
import { verifySignIn } from './verify-sign-in.js';

const challengeInput = z.object({ did: z.string().min(1).max(200), purpose: z.enum(CHALLENGE_PURPOSES).default('sign_in') });
const answerInput = z.object({
  nonce: z.string().regex(/^[0-9a-f]{32}$/, 'the nonce of the challenge'),
  signature: z.string().regex(/^[0-9a-f]{16,200}$/i, 'a DER-encoded ECDSA signature in hex'),
});

/**
 * Key-based sign-in with a did:key (proto/ctk/gateway/v1/sign_in.proto), served in the gateway's process:
 * a challenge, then its signature for a new API key. The gateway checked the request's shape; what a did,
 * a nonce and a signature look like is checked here.
 */
export function signInService(deps: GatewayDeps) {
  return {
    createSignInChallenge: async ({ did, purpose }: CreateSignInChallengeRequest) => {
      const input = validate(challengeInput, purpose === undefined ? { did } : { did, purpose }, 'body');
      return { challenge: await createSignInChallenge(deps, input.did, input.purpose) };
    },
    verifySignIn: async ({ nonce, signature }: VerifySignInRequest) => ({
      signedIn: await verifySignIn(deps, validate(answerInput, { nonce, signature }, 'body')),
    }),
  };
}
