import type { LoyaltyCard } from '@ctk/proto/ctk/pos/v1/cards';
import { AppError } from '@ctk/shared';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { requireUser } from '../auth/authenticate.js';
import type { GatewayDeps } from '../deps.js';
import { handleField } from '../identity/organization-fields.js';
import { callOptions, orgRef } from '../routes/service-call.js';
import { spendKeyChallenge } from '../sign-in/key-challenge.js';

/** A signed challenge (POST /api/auth/challenge with "purpose": "bind_card"): proof that the caller holds a key. */
const keyProof = z
  .object({
    nonce: z.string().regex(/^[0-9a-f]{32}$/, 'the nonce of the challenge'),
    signature: z.string().regex(/^[0-9a-f]{16,200}$/i, 'a DER-encoded ECDSA signature of the challenge message, in hex'),
  })
  .strict()
  .describe(
    'Proof that you hold the key: ask POST /api/auth/challenge {"did": "did:key:<your key>", "purpose": "bind_card"}, sign its message (ECDSA over SHA-256, DER hex); used once',
  );

/** The body of POST /api/v1/loyalty-cards: the gateway's own, as it checks the proof before pos makes the card. */
export const joinLoyaltyProgramBody = z
  .object({
    org_handle: handleField.describe('The shop whose loyalty program you join'),
    address: z.string().max(100).optional().describe('Your own P2PKH address: needs `proof` of its key (decision 0024)'),
    public_key: z.string().max(132).optional().describe('Or your compressed public key: needs `proof`'),
    proof: keyProof
      .optional()
      .describe(
        'Your signed bind_card challenge: the card is bound to its key and address; absent, the card is held by you (your user) alone',
      ),
  })
  .strict();

/** Where pos names a holder's field, and the field of this route's body it stands for. */
const FIELDS: Record<string, string> = { 'holder.address': 'address', 'holder.public_key': 'address', 'holder.user_id': 'org_handle' };

/**
 * A customer takes a card of a shop's program for themselves (POST /api/v1/loyalty-cards): held by their
 * user id and, when they prove a key with a signed bind_card challenge, by that key and its address
 * (docs/decisions/0024-proof-holds-and-privacy.md). An address or public key without proof is refused: a
 * card bound to someone else's address would take their stamps at the counter and block their own card.
 * The shop is resolved by its handle without a role: any user may hold a card at any shop (404 for a
 * handle no organisation has).
 */
export async function joinLoyaltyProgram(
  deps: GatewayDeps,
  request: FastifyRequest,
  body: z.infer<typeof joinLoyaltyProgramBody>,
): Promise<LoyaltyCard | undefined> {
  const { userId } = requireUser(request);
  if ((body.address || body.public_key) && !body.proof) {
    throw new AppError(
      'validation_failed',
      'An address or public key is bound only with proof that you hold its key: sign a challenge from POST /api/auth/challenge ' +
        '{"did": "did:key:<your public key>", "purpose": "bind_card"} and send {"proof": {"nonce", "signature"}}; or leave them out to hold the card by your account alone.',
      { field: 'proof' },
    );
  }
  const org = await deps.credentials.org(body.org_handle);
  if (!org) throw new AppError('not_found', `No organisation with handle "${body.org_handle}".`, { field: 'org_handle' });
  const proven = body.proof ? (await spendKeyChallenge(deps, body.proof, 'bind_card')).publicKey.toString() : '';
  if (proven && body.public_key && body.public_key.toLowerCase() !== proven) {
    throw new AppError('validation_failed', 'public_key is not the key the proof was signed with.', { field: 'address' });
  }
  try {
    const response = await deps.services.pos.createLoyaltyCard(
      { org: orgRef({ ...org, role: null }), holder: { userId, address: body.address, publicKey: proven || undefined } },
      callOptions(request),
    );
    return response.card;
  } catch (error) {
    // pos names the holder's fields as the staff route spells them; this route takes them at the top of the body.
    const field = AppError.is(error) ? FIELDS[String(error.details?.field)] : undefined;
    if (!AppError.is(error) || !field) throw error;
    throw new AppError(error.code, error.message.replaceAll('holder.', ''), { ...error.details, field });
  }
}
