import { ApiError } from './api.js';
import { describe } from './form.js';
import type { Token } from './tokens.js';

/** The command that funds a wallet on the local chain, as the merchant types it. */
const FAUCET = 'pnpm wallet --file <your wallet file> faucet';

/** What is wrong with one input of the mint form, in the API's words, keyed by the form's field. */
export type FieldProblems = Partial<Record<'symbol' | 'name' | 'decimals' | 'supply' | 'kind' | 'face_value' | 'currency', string>>;

/** The API's field names for the form's, where they differ: the face value is sent as unit_value_minor. */
const FORM_FIELD: Record<string, keyof FieldProblems> = {
  symbol: 'symbol',
  name: 'name',
  decimals: 'decimals',
  supply: 'supply',
  kind: 'kind',
  unit_value_minor: 'face_value',
  currency: 'currency',
};

/**
 * The mint's refusal in words the merchant acts on: a wallet with no coins for the fee says where to send
 * some; coins set aside by an unfinished draft say to finish it; bad input is said beside its field.
 */
export function mintRefusal(error: unknown): { problem: string; fields: FieldProblems } {
  if (!(error instanceof ApiError)) return { problem: describe(error), fields: {} };
  const reason = error.details?.reason;
  if (error.code === 'failed_precondition' && reason === 'no_funds') {
    const addresses = (error.details?.addresses as string[] | undefined) ?? [];
    return {
      problem:
        `Your wallet has no coins to pay the mint's fee (a few satoshis). Send a little BSV to your wallet's address${addresses[0] ? ` ${addresses[0]}` : ''} ` +
        `(on a local test chain: ${FAUCET}), then draft the mint again.`,
      fields: {},
    };
  }
  if (error.code === 'failed_precondition' && reason === 'coins_in_drafts')
    return {
      problem:
        "Your wallet's coins all pay for a mint you drafted and have not finished: finish that draft (its Finish the mint button below), " +
        'or send a little more BSV to your wallet, then draft again.',
      fields: {},
    };
  if (error.code === 'failed_precondition' && reason === 'no_funding_address')
    return {
      problem:
        "The shop has no wallet registered to pay the mint's fee: register your wallet's identity key in Settings, fund it, then draft again.",
      fields: {},
    };
  if (error.code === 'forbidden')
    return { problem: "Only the shop's owner or an admin can mint a token. Ask one of them to do it.", fields: {} };
  if (error.code === 'validation_failed') {
    const issues = (error.details?.issues as { field?: string; message: string }[] | undefined) ?? [];
    const fields: FieldProblems = {};
    for (const issue of issues) {
      const field = issue.field ? FORM_FIELD[issue.field] : undefined;
      if (field) fields[field] ??= field === 'face_value' ? faceValueSentence(issue.message) : sentence(issue.message);
    }
    return { problem: Object.keys(fields).length ? 'Check the fields marked above.' : error.message, fields };
  }
  return { problem: error.message, fields: {} };
}

/** The chain's or the wallet API's refusal of the signed transaction, saying what to paste instead. */
export function broadcastRefusal(error: unknown): string {
  if (!(error instanceof ApiError)) return describe(error);
  if (error.code === 'validation_failed')
    return 'That is not a transaction: paste the whole line of letters and digits that sign-transaction printed.';
  if (error.code === 'chain_rejected')
    return (
      `The chain refused that transaction (${error.message}). Paste exactly what sign-transaction printed for this mint; ` +
      "if your wallet spent the mint's coins since, draft the mint again."
    );
  return error.message;
}

/** The confirm's refusal: a transaction that is not this draft's mint says how it differs. */
export function confirmRefusal(error: unknown, token: Token): string {
  if (!(error instanceof ApiError)) return describe(error);
  if (error.code === 'not_found' && error.details?.field === 'txid')
    return 'The chain does not have that transaction yet. Broadcast the signed mint first, or wait a moment and confirm again.';
  if (error.code === 'validation_failed') {
    const differences = (error.details?.differences as { field: string; expected: string; found: string }[] | undefined) ?? [];
    if (differences.length === 0) return 'A transaction id is 64 letters (a to f) and digits: paste it whole.';
    if (differences.some((d) => d.field === 'deploy_mint'))
      return `That transaction mints no token: it is not this mint of ${token.symbol}. Paste the id of the transaction your wallet signed for this draft.`;
    return `That transaction mints another token: ${differences.map(differenceText).join('; ')}. Paste the id of the transaction your wallet signed for this draft.`;
  }
  return error.message;
}

function differenceText(difference: { field: string; expected: string; found: string }): string {
  switch (difference.field) {
    case 'symbol':
      return `its symbol is ${difference.found}, not ${difference.expected}`;
    case 'supply':
      return `its supply is ${difference.found} units, not ${difference.expected}`;
    case 'decimals':
      return `it has ${difference.found} decimals, not ${difference.expected}`;
    case 'owner_address':
      return `it pays ${difference.found}, not your address ${difference.expected}`;
    default:
      return `its ${difference.field.replace('_', ' ')} is ${difference.found}, not ${difference.expected}`;
  }
}

/** The API's message for one field ("symbol must be ...") as a sentence. */
function sentence(message: string): string {
  const text = message.charAt(0).toUpperCase() + message.slice(1);
  return /[.!?]$/.test(text) ? text : `${text}.`;
}

/** The API's refusal of unit_value_minor in the form's words: the field asks for one whole token's value. */
function faceValueSentence(message: string): string {
  if (/at most/.test(message)) return 'That is more than one credit may be worth: choose a smaller face value, or fewer decimals.';
  if (/at least|whole number/.test(message)) return 'Each unit must be worth at least the smallest amount of the currency, such as $0.01.';
  return sentence(message);
}
