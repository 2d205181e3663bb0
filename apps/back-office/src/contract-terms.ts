import { ApiError } from './api.js';
import { describe, Refusal } from './form.js';
import { sentence } from './joint-refusals.js';
import { satoshisOf } from './satoshis.js';

/**
 * What a contract's terms form checks before sending and how it says the route's refusals: an escrow's
 * (decision 0038) and a time-locked refund's (decision 0039) take the same kinds of terms: parties' public keys,
 * what the lock holds, what it is for and where it pays.
 */

/** A compressed public key as the contracts routes take one. */
export const PUBLIC_KEY = /^0[23][0-9a-f]{64}$/;

/** The least a contract's lock holds (the contracts service's bound): its settlement's fee must leave something. */
export const LEAST_LOCKED_SATOSHIS = 1000;

/** Said under a form while a field is marked. */
export const CHECK_FIELDS = 'Check the fields marked above.';

/** What is wrong with a party's key as typed (lower case), if anything; `party` as "the buyer". */
export function keyProblem(key: string, party: string, shopKey: string | null): string | null {
  if (!key) return `Paste ${party}'s public key.`;
  if (!PUBLIC_KEY.test(key))
    return 'A public key is 66 letters (a to f) and digits, starting with 02 or 03: copy it whole from the wallet.';
  if (key === shopKey?.toLowerCase()) return `That is your own wallet's key: ${party} must hold a key of their own.`;
  return null;
}

/** What the lock holds as typed, in satoshis; a Refusal says why not, `contract` as "An escrow". */
export function lockedSatoshisOf(text: string, contract: string): number {
  const satoshis = satoshisOf(text, 'what the lock holds');
  if (satoshis < LEAST_LOCKED_SATOSHIS) throw new Refusal(leastText(contract));
  return satoshis;
}

const leastText = (contract: string) => `${contract} holds at least 1,000 satoshis, so that its fee leaves something to pay.`;

type Terms<F extends string> = {
  /** The form's inputs, by the names the route gives them. */
  fields: readonly F[];
  /** The contract, as a sentence starts with it: "An escrow". */
  contract: string;
  /** What the merchant does once the identity key is registered: "agree the escrow". */
  then: string;
  /** The route's words for a field said otherwise, else undefined (the common ones follow). */
  text?: (field: F, message: string) => string | undefined;
};

/**
 * A contract's terms refused (`POST /api/v1/orgs/:handle/escrows`, `.../timelocked-refunds`), in words the
 * merchant acts on: a shop with no wallet identity key (its key in the lock) is sent to Settings; bad input is
 * said beside its field.
 */
export function termsRefusal<F extends string>(error: unknown, terms: Terms<F>): { problem: string; fields: Partial<Record<F, string>> } {
  if (!(error instanceof ApiError)) return { problem: describe(error), fields: {} };
  if (error.code === 'failed_precondition' && error.details?.reason === 'no_identity_key')
    return {
      problem:
        "Your key in the lock is your wallet's identity key, and the shop has none registered. Add your wallet's public key in " +
        `Settings (pnpm wallet address --json shows it as public_key), then ${terms.then}.`,
      fields: {},
    };
  if (error.code !== 'validation_failed') return { problem: error.message, fields: {} };
  const issues = (error.details?.issues as { field?: string; message: string }[] | undefined) ?? [
    { field: error.details?.field as string | undefined, message: error.message },
  ];
  const fields: Partial<Record<F, string>> = {};
  for (const issue of issues) {
    const field = terms.fields.find((name) => name === snakeCase(issue.field ?? ''));
    if (field) fields[field] ??= terms.text?.(field, issue.message) ?? fieldText(field, issue.message, terms.contract);
  }
  return { problem: Object.keys(fields).length ? CHECK_FIELDS : error.message, fields };
}

/** The route's words for one field, as the forms say them. */
function fieldText(field: string, message: string, contract: string): string {
  if (field === 'satoshis' && /at least/.test(message)) return leastText(contract);
  if (field.endsWith('public_key') && /public key|pattern|match/i.test(message))
    return 'A public key is 66 letters (a to f) and digits, starting with 02 or 03: copy it whole from the wallet.';
  return sentence(message.replace(/^Invalid input: /, ''));
}

const snakeCase = (field: string) => field.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
