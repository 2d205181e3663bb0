import { ApiError } from './api.js';
import { termsRefusal } from './contract-terms.js';
import { describe } from './form.js';

/** The escrow form's inputs, by the names the route gives them. */
export type EscrowField = 'buyer_public_key' | 'arbiter_public_key' | 'satoshis' | 'description' | 'release_address' | 'refund_address';
export type EscrowProblems = Partial<Record<EscrowField, string>>;

const FIELDS: EscrowField[] = ['buyer_public_key', 'arbiter_public_key', 'satoshis', 'description', 'release_address', 'refund_address'];

/**
 * An escrow refused (`POST /api/v1/orgs/:handle/escrows`), in words the merchant acts on: a shop with no wallet
 * identity key (its key in the lock) is sent to Settings; bad input is said beside its field.
 */
export function agreeRefusal(error: unknown): { problem: string; fields: EscrowProblems } {
  return termsRefusal(error, {
    fields: FIELDS,
    contract: 'An escrow',
    then: 'agree the escrow',
    text: (_field, message) =>
      /three different keys/.test(message)
        ? 'The buyer, you and the arbiter must each hold a key of their own: this key is already another party’s.'
        : undefined,
  });
}

/** A release or refund proposal refused (`POST /api/v1/escrows/:id/settlement`). */
export function settleRefusal(error: unknown): string {
  if (!(error instanceof ApiError)) return describe(error);
  if (error.code === 'failed_precondition') {
    const reason = error.details?.reason;
    if (reason === 'released' || reason === 'refunded') return `This escrow is ${reason} already: there is nothing left in the lock.`;
    return 'The lock is not funded yet: the buyer funds it first, and it must be on the chain.';
  }
  return error.message;
}
