import { ApiError } from './api.js';
import { describe } from './form.js';
import { sentence } from './joint-refusals.js';

/** The escrow form's inputs, by the names the route gives them. */
export type EscrowField = 'buyer_public_key' | 'arbiter_public_key' | 'satoshis' | 'description' | 'release_address' | 'refund_address';
export type EscrowProblems = Partial<Record<EscrowField, string>>;

const FIELDS: EscrowField[] = ['buyer_public_key', 'arbiter_public_key', 'satoshis', 'description', 'release_address', 'refund_address'];

/** Said under the form while a field is marked. */
export const CHECK_FIELDS = 'Check the fields marked above.';

/**
 * An escrow refused (`POST /api/v1/orgs/:handle/escrows`), in words the merchant acts on: a shop with no wallet
 * identity key (its key in the lock) is sent to Settings; bad input is said beside its field.
 */
export function agreeRefusal(error: unknown): { problem: string; fields: EscrowProblems } {
  if (!(error instanceof ApiError)) return { problem: describe(error), fields: {} };
  if (error.code === 'failed_precondition' && error.details?.reason === 'no_identity_key')
    return {
      problem:
        "Your key in the lock is your wallet's identity key, and the shop has none registered. Add your wallet's public key in " +
        'Settings (pnpm wallet address --json shows it as public_key), then agree the escrow.',
      fields: {},
    };
  if (error.code !== 'validation_failed') return { problem: error.message, fields: {} };
  const issues = (error.details?.issues as { field?: string; message: string }[] | undefined) ?? [
    { field: error.details?.field as string | undefined, message: error.message },
  ];
  const fields: EscrowProblems = {};
  for (const issue of issues) {
    const field = FIELDS.find((name) => name === snakeCase(issue.field ?? ''));
    if (field) fields[field] ??= fieldText(field, issue.message);
  }
  return { problem: Object.keys(fields).length ? CHECK_FIELDS : error.message, fields };
}

/** The route's words for one field, as the form says them. */
function fieldText(field: EscrowField, message: string): string {
  if (/three different keys/.test(message))
    return 'The buyer, you and the arbiter must each hold a key of their own: this key is already another party’s.';
  if (field === 'satoshis' && /at least/.test(message))
    return 'An escrow holds at least 1,000 satoshis, so that its fee leaves something to pay.';
  if ((field === 'buyer_public_key' || field === 'arbiter_public_key') && /public key|pattern|match/i.test(message))
    return 'A public key is 66 letters (a to f) and digits, starting with 02 or 03: copy it whole from the wallet.';
  return sentence(message.replace(/^Invalid input: /, ''));
}

const snakeCase = (field: string) => field.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);

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
