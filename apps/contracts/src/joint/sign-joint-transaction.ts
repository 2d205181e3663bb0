import { OP, Transaction, UnlockingScript, Utils, type TransactionInput } from '@bsv/sdk';
import { checkInputScripts, decodeTransaction, hexToBytes, isInputSignatureValid, SIGHASH_ALL_FORKID } from '@ctk/chain';
import { AppError, validate } from '@ctk/shared';
import { z } from 'zod';
import type { JointSignature, JointWithSignatures } from '../data/joint-repository.js';
import type { ContractsContext } from '../domain/contracts-context.js';
import { postShopReceipt } from './shop-receipt-event.js';
import { lockOf } from './create-joint-transaction.js';
import type { InputLock } from './input-lock.js';
import { mayBeSignedBy } from './input-lock.js';

const signSchema = z.object({
  id: z.string(),
  transaction: z
    .string()
    .min(1, 'transaction is required: the agreed transaction as your wallet signed it, in hex')
    .max(4_000_000, 'transaction is too large')
    .regex(/^([0-9a-fA-F]{2})+$/, 'transaction must be hex'),
});

type Found = Omit<JointSignature, 'jointId'>;

/**
 * A partner's signatures (docs/decisions/0037-jointly-signed-transactions.md): the transaction its wallet signed
 * must be the agreed one, input for input and output for output (else transaction_mismatch, naming what
 * differs); every signature on it must be the input's key's over the agreed transaction (else
 * signature_invalid, naming the input: a signature over anything else does not verify). Kept under the joint
 * transaction's lock; once every input has what it needs, the signed whole is built, run through the script
 * interpreter, and broadcast (unless a contract holds it to broadcast later, decision 0039); accepted, an
 * escrow's release posts its sale (decision 0038). Signatures given again change nothing; a complete
 * transaction the chain has not yet accepted is broadcast again.
 */
export async function signJointTransaction(context: ContractsContext, input: unknown): Promise<JointWithSignatures> {
  const request = validate(signSchema, input);
  const joint = await context.joints.byId(request.id);
  if (!joint) throw new AppError('not_found', `No joint transaction ${request.id}`, { field: 'id' });
  if (joint.status === 'broadcast') return joint;
  const agreed = decodeTransaction(hexToBytes(joint.transaction)).tx;
  const locks = (joint.locks as unknown[]).map(lockOf);
  const found = signaturesOf(agreed, locks, submitted(request.transaction), context.now());
  const updated = await context.joints.addSignatures(joint.id, found, (current) => completed(agreed, locks, current));
  if (updated.status !== 'signed' || updated.holdBroadcast) return updated;
  return broadcastSigned(context, updated);
}

/**
 * Broadcasts a signed joint transaction and marks it broadcast once the chain accepts it; an escrow's release
 * posts its sale in the same transaction (decision 0038). A refusal (a double spend, a lock time not yet
 * reached) is the chain's error, and it stays signed.
 */
export async function broadcastSigned(context: ContractsContext, joint: JointWithSignatures): Promise<JointWithSignatures> {
  await context.chain.broadcast(Transaction.fromHex(joint.signedTransaction!));
  const now = context.now();
  const { joint: broadcast, emitted } = await context.joints.markBroadcast(joint.id, now, (tx, row) =>
    postShopReceipt(tx, row, context.chain.network, now),
  );
  if (emitted) context.eventsCommitted();
  return broadcast;
}

function submitted(hex: string): Transaction {
  try {
    return decodeTransaction(hexToBytes(hex.toLowerCase())).tx;
  } catch {
    throw new AppError('validation_failed', 'transaction is not a transaction in hex (Extended Format, BEEF or raw)', {
      field: 'transaction',
    });
  }
}

/** The signatures the submitted copy carries, each checked against the agreed transaction. */
function signaturesOf(agreed: Transaction, locks: readonly InputLock[], signed: Transaction, now: Date): Found[] {
  const difference = differenceOf(agreed, signed);
  if (difference)
    throw new AppError(
      'transaction_mismatch',
      `The transaction signed is not the agreed one: ${difference}. Sign the agreed transaction as it is.`,
      {
        differs: difference,
      },
    );
  const found = signed.inputs.flatMap((input, index) => {
    const chunks = input.unlockingScript?.chunks ?? [];
    if (chunks.length === 0) return [];
    const lock = locks[index]!;
    const spent = agreed.inputs[index]!.sourceTransaction!.outputs[agreed.inputs[index]!.sourceOutputIndex]!;
    // Only a signature over the whole agreed transaction (SIGHASH_ALL | FORKID) is one to it: a NONE or SINGLE
    // one would let its input be spent to other outputs.
    const verify = (signature: number[], publicKey: string) =>
      signature.at(-1) === SIGHASH_ALL_FORKID &&
      isInputSignatureValid({
        tx: agreed,
        inputIndex: index,
        sourceSatoshis: spent.satoshis!,
        lockingScript: spent.lockingScript,
        signature,
        publicKey,
      });
    const refuse = (why: string) => new AppError('signature_invalid', `Input ${index}: ${why}`, { input: index });
    if (lock.kind === 'p2pkh') {
      const [signature, key] = chunks.map((chunk) => chunk.data ?? []);
      const publicKey = Utils.toHex(key ?? []);
      if (chunks.length !== 2 || !mayBeSignedBy(lock, publicKey))
        throw refuse('its unlocking script must be <signature> <public key> of the address it spends');
      if (!verify(signature!, publicKey)) throw refuse('the signature is not over the whole agreed transaction (SIGHASH_ALL | FORKID)');
      return [{ inputIndex: index, publicKey, signature: Utils.toHex(signature!), createdAt: now }];
    }
    if (chunks[0]?.op !== OP.OP_0 || chunks.length < 2 || chunks.length > lock.required + 1)
      throw refuse(`its unlocking script must be OP_0 and up to ${lock.required} signatures`);
    return chunks.slice(1).map((chunk) => {
      const signature = chunk.data ?? [];
      const publicKey = lock.publicKeys.find((key) => verify(signature, key));
      if (!publicKey) throw refuse("a signature is not any of its keys' over the agreed transaction");
      return { inputIndex: index, publicKey, signature: Utils.toHex(signature), createdAt: now };
    });
  });
  if (found.length === 0)
    throw new AppError('validation_failed', 'No input of the transaction carries a signature: sign it with your wallet first', {
      field: 'transaction',
    });
  return found;
}

/** What differs between the agreed transaction and a partner's copy, in words; undefined when they agree. */
function differenceOf(agreed: Transaction, signed: Transaction): string | undefined {
  if (signed.version !== agreed.version) return 'its version';
  if (signed.lockTime !== agreed.lockTime) return 'its lock time';
  if (signed.inputs.length !== agreed.inputs.length) return `it has ${signed.inputs.length} inputs, not ${agreed.inputs.length}`;
  if (signed.outputs.length !== agreed.outputs.length) return `it has ${signed.outputs.length} outputs, not ${agreed.outputs.length}`;
  const input = agreed.inputs.findIndex((mine, index) => {
    const theirs = signed.inputs[index]!;
    return (
      sourceTxidOf(theirs) !== sourceTxidOf(mine) ||
      theirs.sourceOutputIndex !== mine.sourceOutputIndex ||
      (theirs.sequence ?? 0xffffffff) !== (mine.sequence ?? 0xffffffff)
    );
  });
  if (input >= 0) return `input ${input}`;
  const output = agreed.outputs.findIndex(
    (mine, index) =>
      signed.outputs[index]!.satoshis !== mine.satoshis || signed.outputs[index]!.lockingScript.toHex() !== mine.lockingScript.toHex(),
  );
  return output >= 0 ? `output ${output}` : undefined;
}

/**
 * When every input has what it needs: the signed transaction, checked by the script interpreter as a node
 * would. A multisig's signatures go in its keys' order, the first `required` of them.
 */
function completed(agreed: Transaction, locks: readonly InputLock[], joint: JointWithSignatures) {
  const byInput = locks.map((_, index) => joint.signatures.filter((signature) => signature.inputIndex === index));
  const ready = locks.every((lock, index) => byInput[index]!.length >= (lock.kind === 'p2pkh' ? 1 : lock.required));
  if (!ready) return undefined;
  const signed = Transaction.fromHexEF(joint.transaction);
  for (const [index, lock] of locks.entries()) {
    const signatures = byInput[index]!;
    const chunks =
      lock.kind === 'p2pkh'
        ? [signatures[0]!.signature, signatures[0]!.publicKey]
        : [
            ...lock.publicKeys
              .flatMap((key) => signatures.filter((signature) => signature.publicKey === key))
              .slice(0, lock.required)
              .map((signature) => signature.signature),
          ];
    const pushes = chunks.map((hex) => Utils.toArray(hex, 'hex'));
    signed.inputs[index]!.unlockingScript = new UnlockingScript([
      ...(lock.kind === 'multisig' ? [{ op: OP.OP_0 }] : []),
      ...pushes.map((data) => ({ op: data.length, data })),
    ]);
  }
  const coins = signed.inputs.map((input) => input.sourceTransaction!.outputs[input.sourceOutputIndex]!);
  const failure = checkInputScripts(
    signed,
    coins.map((coin) => ({ satoshis: coin.satoshis!, lockingScript: coin.lockingScript })),
  );
  if (failure) throw new AppError('signature_invalid', `Input ${failure.index}: ${failure.reason}`, { input: failure.index });
  return { status: 'signed', txid: signed.id('hex'), signedTransaction: signed.toHex() };
}

/** The txid an input spends: named in raw and Extended Format, or its whole source transaction's in BEEF. */
export function sourceTxidOf(input: TransactionInput): string | undefined {
  return input.sourceTXID ?? input.sourceTransaction?.id('hex');
}
