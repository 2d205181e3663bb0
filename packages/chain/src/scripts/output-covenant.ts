import {
  BigNumber,
  Hash,
  LockingScript,
  OP,
  TransactionSignature,
  UnlockingScript,
  Utils,
  type ScriptChunk,
  type Transaction,
} from '@bsv/sdk';
import { MAX_SATOSHIS } from '@ctk/shared';
import { SIGHASH_ALL_FORKID } from '../tokens/input-signature.js';

/** One output a covenant's spend must have, in its place in the list. */
export type CovenantOutput = { satoshis: number; lockingScript: LockingScript };

/**
 * The signature OP_PUSH_TX builds: private key 1 and nonce 1, so the public key and the nonce's point are both
 * the generator G, r is G's x coordinate and s = (z + r) mod n for z = sha256d(preimage) read big-endian.
 */
const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
const GX = 0x79be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798n;
/** G compressed: 02, then x (even y). */
const G_COMPRESSED = [0x02, ...bigEndian32(GX)];
/** The DER bytes between the sequence's length and s's length: r as an INTEGER (32 bytes, high bit clear), then s's tag. */
const DER_R_AND_S_TAG = [0x02, 0x20, ...bigEndian32(GX), 0x02];

/**
 * Bytes of the BIP 143 preimage around the script code: nVersion 4, hashPrevouts 32, hashSequence 32 and the
 * outpoint 36 before it; the value 8, nSequence 4, hashOutputs 32, nLockTime 4 and the sighash type 4 after.
 */
const PREIMAGE_FIXED_BYTES = 4 + 32 + 32 + 36 + 8 + 4 + 32 + 4 + 4;

/**
 * A locking script (OP_PUSH_TX) spendable only by a transaction whose outputs are exactly `outputs`, in this
 * order, and which spends nothing else: no key, so anyone may broadcast the spend (`outputCovenantUnlock`). The
 * difference between the covenant's value and the outputs' total is the spend's fee.
 *
 * The unlocking script pushes the spend's BIP 143 preimage (SIGHASH_ALL|FORKID) and the lock:
 * 1. checks the transaction has one input: hashPrevouts is sha256d of this input's outpoint (otherwise two
 *    covenants with the same outputs could be spent together and their outputs paid once);
 * 2. checks hashOutputs (preimage[len-40 .. len-8]) is sha256d of the serialized fixed outputs;
 * 3. proves the preimage is this spend's: it signs sha256d(preimage) with private key 1 and nonce 1, s taken as
 *    min(s, n - s) (low S, which any version of transaction passes), DER-encodes it with the sighash byte 0x41
 *    and checks it with OP_CHECKSIG against G. The signature verifies only if the node's own preimage has the
 *    same hash, so the pushed preimage, with the hashPrevouts and hashOutputs read from it, is the real one.
 */
export function outputCovenantLock(outputs: readonly CovenantOutput[]): LockingScript {
  if (outputs.length === 0) throw new Error('An output covenant needs at least one output.');
  for (const [index, output] of outputs.entries()) {
    if (!Number.isSafeInteger(output.satoshis) || output.satoshis < 0 || output.satoshis > MAX_SATOSHIS)
      throw new Error(`Output ${index} pays ${output.satoshis} satoshis, outside 0 to ${MAX_SATOSHIS}.`);
  }
  // 31 splits of one byte off the front leave b0 b1 ... b31; each OP_SWAP OP_CAT then puts the byte below in
  // front of the bytes above: b31 b30 ... b0.
  const REVERSE_32 = [
    ...Array.from({ length: 31 }, () => [OP.OP_1, OP.OP_SPLIT]).flat(),
    ...Array.from({ length: 31 }, () => [OP.OP_SWAP, OP.OP_CAT]).flat(),
  ];
  // Each line: opcodes, and data (number[]) pushed minimally; then the stack after it, top on the right.
  return new LockingScript(
    [
      // Stack: preimage.
      // 1. One input: sha256d(outpoint) == hashPrevouts.
      ...[OP.OP_DUP, OP.OP_4, OP.OP_SPLIT, OP.OP_NIP], // preimage preimage[4..] (nVersion dropped)
      ...[num(32), OP.OP_SPLIT], // preimage hashPrevouts preimage[36..]
      ...[num(32), OP.OP_SPLIT, OP.OP_NIP], // preimage hashPrevouts preimage[68..] (hashSequence dropped)
      ...[num(36), OP.OP_SPLIT, OP.OP_DROP], // preimage hashPrevouts outpoint
      ...[OP.OP_HASH256, OP.OP_EQUALVERIFY], // preimage
      // 2. The outputs: preimage[len-40 .. len-8] (hashOutputs, before nLockTime and the sighash type) == the constant.
      ...[OP.OP_DUP, OP.OP_SIZE, num(40), OP.OP_SUB], // preimage preimage len-40
      ...[OP.OP_SPLIT, OP.OP_NIP], // preimage preimage[len-40..]
      ...[num(32), OP.OP_SPLIT, OP.OP_DROP], // preimage hashOutputs
      ...[hashOfOutputs(outputs), OP.OP_EQUALVERIFY], // preimage
      // 3. z = sha256d(preimage) as a number: the hash is z big-endian, script numbers are little-endian.
      OP.OP_HASH256, // h
      ...REVERSE_32, // h reversed
      ...[[0x00], OP.OP_CAT, OP.OP_BIN2NUM], // z (the 0x00 sign byte keeps it positive; BIN2NUM makes it minimal)
      // 4. s = (z + r) mod n, then min(s, n - s): ECDSA accepts either, the low-S rule only the lower.
      ...[num(GX), OP.OP_ADD], // z+r
      ...[num(N), OP.OP_TUCK, OP.OP_MOD], // n s
      ...[OP.OP_2DUP, OP.OP_SUB], // n s n-s
      ...[OP.OP_MIN, OP.OP_NIP], // s, 1 <= s <= (n-1)/2 < 2^255: its DER integer needs no 0x00 in front
      // 5. s's DER bytes: big-endian without leading zero bytes; L = the script number's length, 1 to 32.
      ...[OP.OP_SIZE, OP.OP_SWAP], // L s
      ...[num(32), OP.OP_NUM2BIN], // L s-as-32-bytes-little-endian (zero bytes at the top)
      ...REVERSE_32, // L s32 (big-endian, 32-L zero bytes in front)
      ...[num(32), OP.OP_2, OP.OP_PICK, OP.OP_SUB], // L s32 32-L
      ...[OP.OP_SPLIT, OP.OP_NIP], // L sDER
      // 6. The signature 30 <36+L> 02 20 <r> 02 <L> <s> 41 (L and 36+L are one byte as script numbers), checked against G.
      ...[OP.OP_SWAP, OP.OP_DUP, num(36), OP.OP_ADD], // sDER L 36+L
      ...[[0x30], OP.OP_SWAP, OP.OP_CAT], // sDER L 30|36+L
      ...[DER_R_AND_S_TAG, OP.OP_CAT], // sDER L 30|36+L|02 20 r 02
      ...[OP.OP_SWAP, OP.OP_CAT], // sDER 30|36+L|02 20 r 02|L
      ...[OP.OP_SWAP, OP.OP_CAT], // 30|36+L|02 20 r 02|L|sDER
      ...[[SIGHASH_ALL_FORKID], OP.OP_CAT], // signature
      ...[G_COMPRESSED, OP.OP_CHECKSIG], // true when the preimage is this spend's
    ].map((item): ScriptChunk => (typeof item === 'number' ? { op: item } : push(item))),
  );
}

/**
 * sha256d of the outputs serialized as in a transaction (8-byte little-endian value, varint script length,
 * script): what a spend's preimage holds as hashOutputs when its outputs are exactly these.
 */
export function hashOfOutputs(outputs: readonly CovenantOutput[]): number[] {
  const writer = new Utils.Writer();
  for (const output of outputs) {
    const script = output.lockingScript.toBinary();
    writer.writeUInt64LE(output.satoshis);
    writer.writeVarIntNum(script.length);
    writer.write(script);
  }
  return Hash.hash256(writer.toArray()) as number[];
}

/**
 * The BIP 143 preimage (SIGHASH_ALL|FORKID) of input `inputIndex` of `tx`, which spends an output worth
 * `sourceSatoshis` locked by `lockingScript`: what the covenant's unlocking script pushes.
 */
export function outputCovenantPreimage(
  tx: Transaction,
  inputIndex: number,
  sourceSatoshis: number,
  lockingScript: LockingScript,
): number[] {
  const input = tx.inputs[inputIndex];
  if (!input) throw new Error(`The transaction has no input ${inputIndex}.`);
  const sourceTXID = input.sourceTXID ?? input.sourceTransaction?.id('hex');
  if (!sourceTXID) throw new Error(`Input ${inputIndex} names no source transaction.`);
  return TransactionSignature.format({
    sourceTXID,
    sourceOutputIndex: input.sourceOutputIndex,
    sourceSatoshis,
    transactionVersion: tx.version,
    otherInputs: tx.inputs.filter((_, index) => index !== inputIndex),
    inputIndex,
    outputs: tx.outputs,
    inputSequence: input.sequence ?? 0xffffffff,
    subscript: lockingScript,
    lockTime: tx.lockTime,
    scope: SIGHASH_ALL_FORKID,
  });
}

/**
 * Unlocks an output covenant, as an @bsv/sdk unlocking template: the unlocking script is one push, the input's
 * preimage. The spent output's satoshis and script come from the input's source transaction unless given.
 * Set the spend's outputs, version, lock time and sequences first: the preimage covers them.
 */
export function outputCovenantUnlock(
  sourceSatoshis?: number,
  lockingScript?: LockingScript,
): {
  sign(tx: Transaction, inputIndex: number): Promise<UnlockingScript>;
  estimateLength(tx: Transaction, inputIndex: number): Promise<number>;
} {
  const spent = (tx: Transaction, inputIndex: number) => {
    const input = tx.inputs[inputIndex];
    const output = input?.sourceTransaction?.outputs[input.sourceOutputIndex];
    const satoshis = sourceSatoshis ?? output?.satoshis;
    const script = lockingScript ?? output?.lockingScript;
    if (satoshis === undefined || !script)
      throw new Error(`Input ${inputIndex}: give the covenant output's satoshis and locking script, or its source transaction.`);
    return { satoshis, script };
  };
  return {
    sign: async (tx, inputIndex) => {
      const { satoshis, script } = spent(tx, inputIndex);
      return new UnlockingScript([push(outputCovenantPreimage(tx, inputIndex, satoshis, script))]);
    },
    estimateLength: async (tx, inputIndex) => unlockingScriptBytes(spent(tx, inputIndex).script.toBinary().length),
  };
}

/**
 * Bytes of the transaction that spends a covenant on `outputs` (its one input, those outputs): the covenant's
 * value less the outputs' total is its fee, so fund it with at least `fee rate * this` more than they pay.
 */
export function outputCovenantSpendBytes(outputs: readonly CovenantOutput[]): number {
  const unlockingBytes = unlockingScriptBytes(outputCovenantLock(outputs).toBinary().length);
  const outputBytes = outputs.reduce((sum, output) => {
    const scriptBytes = output.lockingScript.toBinary().length;
    return sum + 8 + varIntBytes(scriptBytes) + scriptBytes;
  }, 0);
  // version, input count, outpoint, unlocking script, sequence, output count, outputs, lock time
  return 4 + 1 + 36 + varIntBytes(unlockingBytes) + unlockingBytes + 4 + varIntBytes(outputs.length) + outputBytes + 4;
}

/** Bytes of the unlocking script, one push of the preimage, for a lock of `lockBytes`. */
function unlockingScriptBytes(lockBytes: number): number {
  const preimageBytes = PREIMAGE_FIXED_BYTES + varIntBytes(lockBytes) + lockBytes;
  return preimageBytes + (preimageBytes < OP.OP_PUSHDATA1 ? 1 : preimageBytes <= 0xff ? 2 : preimageBytes <= 0xffff ? 3 : 5);
}

/** A push of `data` in its minimal form (the form a transaction of version 1 must use). */
function push(data: number[]): ScriptChunk {
  if (data.length === 0) return { op: OP.OP_0 };
  if (data.length === 1 && data[0]! >= 1 && data[0]! <= 16) return { op: OP.OP_1 + data[0]! - 1 };
  if (data.length === 1 && data[0] === 0x81) return { op: OP.OP_1NEGATE };
  if (data.length < OP.OP_PUSHDATA1) return { op: data.length, data };
  if (data.length <= 0xff) return { op: OP.OP_PUSHDATA1, data };
  if (data.length <= 0xffff) return { op: OP.OP_PUSHDATA2, data };
  return { op: OP.OP_PUSHDATA4, data };
}

/** A non-negative number as a script number: minimal little-endian, a 0x00 byte on top when the high bit is set. */
function num(value: bigint | number): number[] {
  return new BigNumber(value.toString(16), 16).toScriptNum();
}

function bigEndian32(value: bigint): number[] {
  return Utils.toArray(value.toString(16).padStart(64, '0'), 'hex') as number[];
}

function varIntBytes(value: number): number {
  return value < 0xfd ? 1 : value <= 0xffff ? 3 : value <= 0xffffffff ? 5 : 9;
}
