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
const SIGHASH_ALL_FORKID = TransactionSignature.SIGHASH_ALL | TransactionSignature.SIGHASH_FORKID;

/** Bytes of the BIP 143 preimage around the script code: version 4, hashPrevouts 32, hashSequence 32, outpoint 36 before; value 8, nSequence 4, hashOutputs 32, nLockTime 4, sighash type 4 after. */
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
  const op = (code: number): ScriptChunk => ({ op: code });
  const REVERSE_32: ScriptChunk[] = [
    // b0..b31 -> b0 b1 ... b31 (31 splits of one byte off the front) ...
    ...Array.from({ length: 31 }, () => [op(OP.OP_1), op(OP.OP_SPLIT)]).flat(),
    // ... -> b31 b30 ... b0 (each OP_SWAP OP_CAT puts the byte below in front of the bytes above).
    ...Array.from({ length: 31 }, () => [op(OP.OP_SWAP), op(OP.OP_CAT)]).flat(),
  ];
  return new LockingScript([
    // Stack: <preimage>.
    // 1. One input: sha256d(outpoint) == hashPrevouts.
    op(OP.OP_DUP), //                                     preimage preimage
    op(OP.OP_4), op(OP.OP_SPLIT), op(OP.OP_NIP), //       preimage preimage[4..]          (drop nVersion)
    push(scriptNumber(32n)), op(OP.OP_SPLIT), //          preimage hashPrevouts preimage[36..]
    push(scriptNumber(32n)), op(OP.OP_SPLIT), op(OP.OP_NIP), // preimage hashPrevouts preimage[68..] (drop hashSequence)
    push(scriptNumber(36n)), op(OP.OP_SPLIT), op(OP.OP_DROP), // preimage hashPrevouts outpoint
    op(OP.OP_HASH256), op(OP.OP_EQUALVERIFY), //          preimage
    // 2. The outputs: preimage[len-40 .. len-8] (hashOutputs, before nLockTime and the sighash type) == the constant.
    op(OP.OP_DUP), op(OP.OP_SIZE), //                     preimage preimage len
    push(scriptNumber(40n)), op(OP.OP_SUB), //            preimage preimage len-40
    op(OP.OP_SPLIT), op(OP.OP_NIP), //                    preimage preimage[len-40..]
    push(scriptNumber(32n)), op(OP.OP_SPLIT), op(OP.OP_DROP), // preimage hashOutputs
    push(hashOfOutputs(outputs)), op(OP.OP_EQUALVERIFY), // preimage
    // 3. z = sha256d(preimage) as a number: the hash is z big-endian, script numbers are little-endian.
    op(OP.OP_HASH256), //                                 h
    ...REVERSE_32, //                                     h reversed
    push([0x00]), op(OP.OP_CAT), op(OP.OP_BIN2NUM), //    z (a 0x00 sign byte keeps it positive; BIN2NUM makes it minimal)
    // 4. s = (z + r) mod n, then min(s, n - s): ECDSA accepts either, low-S rules only the lower.
    push(scriptNumber(GX)), op(OP.OP_ADD), //             z+r
    push(scriptNumber(N)), op(OP.OP_TUCK), op(OP.OP_MOD), // n s
    op(OP.OP_2DUP), op(OP.OP_SUB), //                     n s n-s
    op(OP.OP_MIN), op(OP.OP_NIP), //                      s (1 <= s <= (n-1)/2: below 2^255, so DER needs no 0x00)
    // 5. s's DER bytes: big-endian with no leading zero byte, L = its script number's length (1 to 32).
    op(OP.OP_SIZE), op(OP.OP_SWAP), //                    L s
    push(scriptNumber(32n)), op(OP.OP_NUM2BIN), //        L s as 32 bytes little-endian (zeros at the top)
    ...REVERSE_32, //                                     L s as 32 bytes big-endian (32-L leading zeros)
    push(scriptNumber(32n)), op(OP.OP_2), op(OP.OP_PICK), op(OP.OP_SUB), // L s32 32-L
    op(OP.OP_SPLIT), op(OP.OP_NIP), //                    L sBE
    // 6. The signature: 30 <36+L> 02 20 <r> 02 <L> <s> 41; L and 36+L are single bytes as script numbers.
    op(OP.OP_SWAP), //                                    sBE L
    op(OP.OP_DUP), push(scriptNumber(36n)), op(OP.OP_ADD), // sBE L 36+L
    push([0x30]), op(OP.OP_SWAP), op(OP.OP_CAT), //       sBE L 30|36+L
    push(DER_R_AND_S_TAG), op(OP.OP_CAT), //              sBE L 30|36+L|02 20 r 02
    op(OP.OP_SWAP), op(OP.OP_CAT), //                     sBE ...02|L
    op(OP.OP_SWAP), op(OP.OP_CAT), //                     ...02|L|sBE
    push([SIGHASH_ALL_FORKID]), op(OP.OP_CAT), //         signature
    push(G_COMPRESSED), op(OP.OP_CHECKSIG), //            true when the preimage is this spend's
  ]);
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
export function outputCovenantPreimage(tx: Transaction, inputIndex: number, sourceSatoshis: number, lockingScript: LockingScript): number[] {
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
): { sign(tx: Transaction, inputIndex: number): Promise<UnlockingScript>; estimateLength(tx: Transaction, inputIndex: number): Promise<number> } {
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
    estimateLength: async (tx, inputIndex) => {
      const scriptBytes = spent(tx, inputIndex).script.toBinary().length;
      const preimageBytes = PREIMAGE_FIXED_BYTES + varIntBytes(scriptBytes) + scriptBytes;
      return preimageBytes + (preimageBytes <= 0xff ? 2 : 3);
    },
  };
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
function scriptNumber(value: bigint): number[] {
  return new BigNumber(value.toString(16), 16).toScriptNum();
}

function bigEndian32(value: bigint): number[] {
  return Utils.toArray(value.toString(16).padStart(64, '0'), 'hex') as number[];
}

function varIntBytes(value: number): number {
  return value < 0xfd ? 1 : value <= 0xffff ? 3 : value <= 0xffffffff ? 5 : 9;
}
