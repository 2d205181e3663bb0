import { ApiError } from './api.js';
import { describe } from './form.js';

/** What the contracts service says differs ("output 0", "input 1", "its version") as the page numbers them, from 1. */
function differenceText(differs: unknown): string {
  const text = typeof differs === 'string' ? differs : '';
  const part = /^(input|output) (\d+)$/.exec(text);
  if (part) return `its ${part[1]} ${Number(part[2]) + 1} is not the agreed one`;
  return text || 'it is another transaction';
}

/**
 * A partner's signed copy refused (`POST /api/v1/joint-transactions/:id/signatures`), in words saying what to
 * paste instead. Nothing of a refused copy is kept.
 */
export function signaturesRefusal(error: unknown): string {
  if (!(error instanceof ApiError)) return describe(error);
  switch (error.code) {
    case 'transaction_mismatch':
      return (
        `That is not the transaction agreed here: ${differenceText(error.details?.differs)}. ` +
        'Sign the transaction shown above as it is, with the command, and paste what it prints.'
      );
    case 'signature_invalid': {
      const input = typeof error.details?.input === 'number' ? `input ${error.details.input + 1}` : 'an input';
      return (
        `The signature on ${input} is not over this transaction: it was made for another transaction, or the transaction ` +
        'was changed after signing. Nothing was kept. Run the command again on the transaction shown above and paste what it prints.'
      );
    }
    case 'validation_failed':
      if (/carries a signature/.test(error.message))
        return 'That transaction carries no signature: it is the one before signing. Run the command and paste what it prints.';
      return 'That is not a transaction: paste the whole line of letters and digits that sign-transaction printed.';
    case 'chain_rejected':
      return (
        `Every signature is in, but the chain refused the transaction (${error.message}). ` +
        'One of the coins it spends may have been spent meanwhile: agree a new transaction with coins still unspent.'
      );
    case 'chain_unavailable':
      return 'The signatures are kept, but the chain could not be reached to check or send the transaction. Try again in a moment.';
    case 'not_found':
      return 'This transaction is not on the service any more: read the page again.';
    default:
      return error.status === 429 ? 'Too many tries from this address: wait a minute, then paste it again.' : error.message;
  }
}

/** Where a refusal of the build form belongs: one of its inputs, or the form as a whole. */
export type BuildProblems = Partial<Record<'inputs' | 'outputs' | 'change' | 'description', string>>;

/**
 * The build refused (`POST /api/v1/orgs/:handle/joint-transactions`), beside the input it is about: `inputs[1]`
 * is the second line of the coins, `outputs[0].address` the first line of the payments.
 */
export function buildRefusal(error: unknown): { problem: string; fields: BuildProblems } {
  if (!(error instanceof ApiError)) return { problem: describe(error), fields: {} };
  if (error.code !== 'validation_failed' && error.code !== 'failed_precondition') return { problem: error.message, fields: {} };
  const issues = (error.details?.issues as { field?: string; message: string }[] | undefined) ?? [
    { field: error.details?.field as string | undefined, message: error.message },
  ];
  const fields: BuildProblems = {};
  for (const issue of issues) {
    const field = snakeCase(issue.field ?? '');
    const line = /^(inputs|outputs)\[(\d+)\]/.exec(field);
    const message = sentence(issue.message.replace(/^Invalid input: /, ''));
    if (line) fields[line[1] as 'inputs' | 'outputs'] ??= `Line ${Number(line[2]) + 1}: ${message}`;
    else if (field === 'inputs' || field === 'outputs') fields[field] ??= message;
    else if (field === 'change_address') fields.change ??= message;
    else if (field === 'description') fields.description ??= message;
  }
  if (Object.keys(fields).length === 0) return { problem: error.message, fields };
  return { problem: 'Check the fields marked above.', fields };
}

const snakeCase = (field: string) => field.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`).replace(/\.(\d+)/g, '[$1]');

/** The API's words as a sentence: a capital first and a full stop last. */
export function sentence(message: string): string {
  const text = message.charAt(0).toUpperCase() + message.slice(1);
  return /[.!?]$/.test(text) ? text : `${text}.`;
}
