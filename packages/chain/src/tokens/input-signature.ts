import { Hash, PublicKey, TransactionSignature, type LockingScript, type PrivateKey, type Transaction } from '@bsv/sdk';

/** SIGHASH_ALL | SIGHASH_FORKID: the signature covers every input and output. */
export const SIGHASH_ALL_FORKID = TransactionSignature.SIGHASH_ALL | TransactionSignature.SIGHASH_FORKID;

/**
 * A signature of input `inputIndex` in checksig form (DER plus the sighash byte), over the spent output's
 * whole locking script as the subscript (no OP_CODESEPARATOR in our scripts). Synchronous, unlike the SDK's
 * templates, so the local chain can sign its own transactions where it cannot await.
 */
export function inputSignature(input: {
  tx: Transaction;
  inputIndex: number;
  key: PrivateKey;
  sourceSatoshis: number;
  lockingScript: LockingScript;
  scope?: number;
}): number[] {
  const { tx, inputIndex } = input;
  const txInput = tx.inputs[inputIndex];
  if (!txInput) throw new Error(`The transaction has no input ${inputIndex}.`);
  const sourceTXID = txInput.sourceTXID ?? txInput.sourceTransaction?.id('hex');
  if (!sourceTXID) throw new Error(`Input ${inputIndex} names no source transaction.`);
  const scope = input.scope ?? SIGHASH_ALL_FORKID;
  const preimage = sighashPreimage({ ...input, sourceTXID, scope });
  const signature = input.key.sign(Hash.sha256(preimage));
  return new TransactionSignature(signature.r, signature.s, scope).toChecksigFormat();
}

/**
 * Whether `signature` (checksig form: DER and the sighash byte) is `publicKey`'s over input `inputIndex` of `tx`
 * spending `lockingScript` worth `sourceSatoshis`, with the scope its sighash byte names: the check an
 * OP_CHECKSIG of that input makes. A signature over another transaction (an output changed, another input)
 * does not verify.
 */
export function isInputSignatureValid(input: {
  tx: Transaction;
  inputIndex: number;
  sourceSatoshis: number;
  lockingScript: LockingScript;
  signature: readonly number[];
  publicKey: string;
}): boolean {
  const { tx, inputIndex } = input;
  const txInput = tx.inputs[inputIndex];
  const sourceTXID = txInput?.sourceTXID ?? txInput?.sourceTransaction?.id('hex');
  if (!txInput || !sourceTXID || input.signature.length < 9) return false;
  try {
    const parsed = TransactionSignature.fromChecksigFormat([...input.signature]);
    if ((parsed.scope & TransactionSignature.SIGHASH_FORKID) === 0) return false;
    const preimage = sighashPreimage({ ...input, sourceTXID, scope: parsed.scope });
    return PublicKey.fromString(input.publicKey).verify(Hash.sha256(preimage), parsed);
  } catch {
    return false;
  }
}

/** The BIP 143 (FORKID) preimage an input's signature covers, over the spent output's whole locking script. */
function sighashPreimage(input: {
  tx: Transaction;
  inputIndex: number;
  sourceTXID: string;
  sourceSatoshis: number;
  lockingScript: LockingScript;
  scope: number;
}): number[] {
  const { tx, inputIndex } = input;
  const txInput = tx.inputs[inputIndex]!;
  return TransactionSignature.format({
    sourceTXID: input.sourceTXID,
    sourceOutputIndex: txInput.sourceOutputIndex,
    sourceSatoshis: input.sourceSatoshis,
    transactionVersion: tx.version,
    otherInputs: tx.inputs.filter((_, index) => index !== inputIndex),
    inputIndex,
    outputs: tx.outputs,
    inputSequence: txInput.sequence ?? 0xffffffff,
    subscript: input.lockingScript,
    lockTime: tx.lockTime,
    scope: input.scope,
  });
}
