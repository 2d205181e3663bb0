import type { Transaction } from '@bsv/sdk';
import { AppError } from '@ctk/shared';

/** An output a payment must have: this locking script (hex) with at least this many satoshis. */
export type ExpectedOutput = { script: string; satoshis: number };

/** The transaction's output that met one expected output. */
export type PaidOutput = { vout: number; script: string; satoshis: number };

/**
 * Matches each expected output to a distinct output of the transaction with the same script and at
 * least its satoshis. Underpaid when the script is there with too few satoshis, wrong output when not at all.
 */
export function matchOutputs(tx: Transaction, expected: readonly ExpectedOutput[]): PaidOutput[] {
  const outputs = tx.outputs.map((output, vout) => ({ vout, script: output.lockingScript.toHex(), satoshis: output.satoshis ?? 0 }));
  const taken = new Set<number>();
  return expected.map((want, index) => {
    const script = want.script.toLowerCase();
    const candidates = outputs.filter((output) => output.script === script && !taken.has(output.vout));
    const paid = candidates.find((output) => output.satoshis >= want.satoshis);
    if (paid) {
      taken.add(paid.vout);
      return paid;
    }
    if (candidates.length === 0) {
      throw new AppError('payment_wrong_output', `The transaction has no output ${index} of the payment (script ${shorten(script)}).`, {
        expected_output: index,
        script,
      });
    }
    const best = Math.max(...candidates.map((output) => output.satoshis));
    throw new AppError(
      'payment_underpaid',
      `Output ${index} of the payment needs at least ${want.satoshis} satoshis; the transaction pays ${best}.`,
      {
        expected_output: index,
        required_satoshis: want.satoshis,
        paid_satoshis: best,
      },
    );
  });
}

function shorten(script: string): string {
  return script.length > 60 ? `${script.slice(0, 56)}...` : script;
}
