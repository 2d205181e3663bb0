import { z } from 'zod';
import { EXAMPLE_USER_ID, issuedApiKey } from '../access/access-answers.js';
import { isoTime, named } from '../routes/answer-schema.js';

/** What key-based sign-in answers: the challenge to sign, then the user and a new API key. */

export const EXAMPLE_DID = 'did:key:zQ3shS33W5rNbKpmgZfdopQJKC3ZJJaUu7vaaXCWq6kEZwSXu';
export const EXAMPLE_NONCE = '7c1e9a4f2b8d6e3a0f5c1b9d7e2a4c6f';

export const signInChallenge = named(
  'SignInChallenge',
  z.object({
    did: z.string(),
    nonce: z.string(),
    message: z.string().describe('Sign exactly this text with the did’s key (ECDSA over its SHA-256), then POST /api/auth/verify'),
    expires_at: isoTime,
  }),
  {
    did: EXAMPLE_DID,
    nonce: EXAMPLE_NONCE,
    message: [
      'example.com wants you to sign in with your did:key:',
      EXAMPLE_DID,
      '',
      'Sign in to Commerce Toolkit.',
      '',
      'URI: https://example.com',
      'Version: 1',
      `Nonce: ${EXAMPLE_NONCE}`,
      'Issued At: 2026-03-02T08:15:30.000Z',
      'Expiration Time: 2026-03-02T08:20:30.000Z',
    ].join('\n'),
    expires_at: '2026-03-02T08:20:30.000Z',
  },
);

export const signedIn = named(
  'SignedIn',
  z.object({ user: z.object({ id: z.uuid(), did: z.string().nullable() }), api_key: issuedApiKey }),
  {
    user: { id: EXAMPLE_USER_ID, did: EXAMPLE_DID },
    api_key: {
      id: '2d4f6a8c-0e1b-4d3f-a5c7-9e1b3d5f7a82',
      name: 'did:key sign-in',
      prefix: 'ctk_sk_RGlk',
      key: 'ctk_sk_RGlkS2V5U2lnbkluLWJsdWUtYm90dGxlLWtleS0wMDM',
      created_at: '2026-03-02T08:16:02.000Z',
    },
  },
);
