import { z } from 'zod';
import type { GatewayDeps } from '../deps.js';
import { createSignInChallenge } from '../sign-in/create-sign-in-challenge.js';
import { CHALLENGE_PURPOSES } from '../sign-in/key-challenge.js';
import { verifySignIn } from '../sign-in/verify-sign-in.js';
import { messageAnswer } from '../contract/message-answer.js';
import { challengeExample, verifyExample } from '../sign-in/sign-in-input.js';
import { route, type RouteDefinition } from './route-definition.js';

/** The answers: messages of the gateway's contract (proto/ctk/gateway/v1/sign_in.proto). */
const CHALLENGE = messageAnswer('ctk.gateway.v1.SignInChallenge');
const SIGNED_IN = messageAnswer('ctk.gateway.v1.SignedIn');

/** Key-based sign-in with a did:key (secp256k1): challenge, then verify. */
export function signInRoutes(deps: GatewayDeps): Record<string, RouteDefinition> {
  return {
    'POST /api/auth/challenge': route({
      signup: true,
      body: z
        .object({
          did: z.string().min(1).max(200),
          purpose: z
            .enum(CHALLENGE_PURPOSES)
            .default('sign_in')
            .describe(
              'What the signature proves the key for: sign_in (POST /api/auth/verify) or bind_card (a card bound to the key, decision 0024)',
            ),
        })
        .strict(),
      bodyExample: challengeExample,
      status: 201,
      answer: CHALLENGE.schema,
      handle: async ({ body }) => CHALLENGE.json(await createSignInChallenge(deps, body.did, body.purpose)),
    }),
    'POST /api/auth/verify': route({
      secrets: [{ path: ['api_key', 'key'], kind: 'api_key' }],
      signup: true,
      body: z
        .object({
          nonce: z.string().regex(/^[0-9a-f]{32}$/, 'the nonce of the challenge'),
          signature: z.string().regex(/^[0-9a-f]{16,200}$/i, 'a DER-encoded ECDSA signature in hex'),
        })
        .strict(),
      bodyExample: verifyExample,
      creates: true,
      status: 201,
      answer: SIGNED_IN.schema,
      errors: ['invalid_signature'],
      handle: async ({ body }) => SIGNED_IN.json(await verifySignIn(deps, body)),
    }),
  };
}
