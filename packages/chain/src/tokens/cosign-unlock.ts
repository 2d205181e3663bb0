import { Transaction, UnlockingScript, type LockingScript, type PrivateKey } from '@bsv/sdk';
import { AppError } from '@ctk/shared';
import { pushChunk } from './inscription-envelope.js';
import { inputSignature } from './input-signature.js';
import { parseTokenOutput } from './parse-token-output.js';

/**
 * Bytes of a cosigned input's whole unlocking script, `<cosigner sig> <owner sig> <owner key>`: the owner's
 * template estimates this, not its own two pushes, so the fee it pays covers the transaction once cosigned.
 */
const COSIGNED_UNLOCK_BYTES = 74 + 74 + 34;

/**
 * The owner's part of unlocking a cosign-locked output, `<owner sig> <owner key>` (SIGHASH_ALL|FORKID over the
 * output's whole locking script), as an @bsv/sdk unlocking template. The cosigner then puts its signature in
 * front (`cosignInput`); without it the script fails and the chain refuses the transaction.
 */
export function cosignOwnerUnlock(
  ownerKey: PrivateKey,
  sourceSatoshis?: number,
  lockingScript?: LockingScript,
): { sign(tx: Transaction, inputIndex: number): Promise<UnlockingScript>; estimateLength(): Promise<number> } {
  return {
    sign: async (tx, inputIndex) => {
      const spent = spentOutput(tx, inputIndex, sourceSatoshis, lockingScript);
      const signature = inputSignature({ tx, inputIndex, key: ownerKey, ...spent });
      return new UnlockingScript([pushChunk(signature), pushChunk(ownerKey.toPublicKey().encode(true) as number[])]);
    },
    estimateLength: async () => COSIGNED_UNLOCK_BYTES,
  };
}

/**
 * The cosigner's part: signs input `inputIndex` (which spends a cosign-locked output with `cosignerKey`'s
 * public key) and puts the signature in front of the owner's two pushes already there. Both signatures cover
 * the same digest, so either can be made first; the transaction's id changes with its unlocking scripts.
 * Returns a new transaction and leaves the given one as it was: @bsv/sdk keeps a transaction's bytes and id
 * once computed, so changing an unlocking script in place would leave them behind.
 */
export function cosignInput(input: {
  tx: Transaction;
  inputIndex: number;
  cosignerKey: PrivateKey;
  sourceSatoshis?: number;
  lockingScript?: LockingScript;
}): Transaction {
  const { tx, inputIndex, cosignerKey } = input;
  const spent = spentOutput(tx, inputIndex, input.sourceSatoshis, input.lockingScript);
  const token = parseTokenOutput(spent.lockingScript);
  if (token?.cosignerPublicKey !== cosignerKey.toPublicKey().toString())
    throw new AppError('validation_failed', `Input ${inputIndex} does not spend an output cosign-locked to this cosigner.`, {
      input: inputIndex,
    });
  const owner = tx.inputs[inputIndex]!.unlockingScript;
  if (!owner || owner.chunks.length !== 2)
    throw new AppError('validation_failed', `Input ${inputIndex} lacks the owner's signature and public key (two pushes).`, {
      input: inputIndex,
    });
  const signature = inputSignature({ tx, inputIndex, key: cosignerKey, ...spent });
  const unlockingScript = new UnlockingScript([pushChunk(signature), ...owner.chunks]);
  // Without its template, a later `sign()` cannot put the owner's two pushes back in its place.
  const inputs = tx.inputs.map((txInput, index) =>
    index === inputIndex ? { ...txInput, unlockingScript, unlockingScriptTemplate: undefined } : txInput,
  );
  return new Transaction(tx.version, inputs, tx.outputs, tx.lockTime, tx.metadata, tx.merklePath);
}

function spentOutput(
  tx: Transaction,
  inputIndex: number,
  sourceSatoshis: number | undefined,
  lockingScript: LockingScript | undefined,
): { sourceSatoshis: number; lockingScript: LockingScript } {
  const input = tx.inputs[inputIndex];
  const output = input?.sourceTransaction?.outputs[input.sourceOutputIndex];
  const satoshis = sourceSatoshis ?? output?.satoshis;
  const script = lockingScript ?? output?.lockingScript;
  if (satoshis === undefined || !script)
    throw new Error(`Input ${inputIndex}: give the spent output's satoshis and locking script, or its source transaction.`);
  return { sourceSatoshis: satoshis, lockingScript: script };
}
