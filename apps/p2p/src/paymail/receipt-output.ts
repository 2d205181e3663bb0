import { Hash, Utils } from '@bsv/sdk';
import { receiptScript } from '@ctk/chain';

/**
 * The lines hash of a payment without order lines: SHA-256 of the canonical encoding of an empty list,
 * `[]` (the receipt format's canonical JSON; `hashOrderLines` itself wants at least one line).
 */
export const EMPTY_LINES_HASH = Utils.toHex(Hash.sha256(Utils.toArray('[]', 'utf8')));

/** The 0-satoshi OP_RETURN receipt output of a paymail payment: the paymail paid, the reference issued. */
export function receiptOutput(paymail: string, reference: string): { script: string; satoshis: number } {
  return { script: receiptScript({ merchant: paymail, reference, linesHash: EMPTY_LINES_HASH }).toHex(), satoshis: 0 };
}
