import { createHash } from 'node:crypto';
import { Hash, OP, TransactionSignature, type LockingScript, type SignatureHashCache, type Transaction } from '@bsv/sdk';
import type { Secp256k1 } from './load-secp256k1.js';
import { readEnvelope } from '../tokens/inscription-envelope.js';
import { isChecksigFormat, isMinimalPush } from './script-encoding.js';

/** What the fast path concludes about one input: `undecided` sends it to @bsv/sdk's interpreter. */
export type Verdict = { verdict: 'valid' } | { verdict: 'invalid'; reason: string } | { verdict: 'undecided' };

export type SignedInput = {
  tx: Transaction;
  index: number;
  sourceTXID: string;
  sourceSatoshis: number;
  lockingScript: LockingScript;
  /** One per transaction: the hashes of its prevouts, sequences and outputs are shared by its inputs. */
  cache: SignatureHashCache;
};

const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
const HALF_N = N >> 1n;
const UNDECIDED: Verdict = { verdict: 'undecided' };
const invalid = (reason: string): Verdict => ({ verdict: 'invalid', reason });

/**
 * Judges a spend of a key-locked output as @bsv/sdk's `Spend` would, with libsecp256k1 for the signatures.
 * Judged locks, exactly: P2PKH (`OP_DUP OP_HASH160 <20 bytes> OP_EQUALVERIFY OP_CHECKSIG`), with or without a
 * 1Sat Ordinals inscription envelope before it (a BSV-21 token: the envelope is an `OP_0 OP_IF ... OP_ENDIF`
 * the interpreter skips), and MNEE's cosign template (`... OP_EQUALVERIFY OP_CHECKSIGVERIFY <33-byte key>
 * OP_CHECKSIG`, decision 0036), likewise; unlocked by exactly two pushes (`<sig> <key>`), or three for the
 * cosign template (`<cosigner sig> <owner sig> <owner key>`). Only FORKID signatures without the CHRONICLE bit
 * (BIP 143 digest) and public keys libsecp256k1 can parse are judged. Everything else is `undecided`, and so
 * is anything where the interpreter's outcome is not plain from the rules below. The rules follow `Spend`
 * without verify flags: strict DER, a defined sighash type and strict public key encoding always; low S and
 * minimal pushes only for transaction version 1 (a later version relaxes them, as in the SDK). Each signature
 * is checked in the order the script runs: the owner's key hash, the owner's signature, then the cosigner's.
 */
export function judgeSignedInput(input: SignedInput, secp: Secp256k1): Verdict {
  const lock = keyLockOf(input.lockingScript);
  const unlocking = input.tx.inputs[input.index]!.unlockingScript;
  if (!lock || !unlocking || unlocking.chunks.length !== (lock.cosignerKey ? 3 : 2)) return UNDECIDED;
  const pushes = unlocking.chunks as Chunk[];
  if (!pushes.every(isPlainPush)) return UNDECIDED;
  const relaxed = input.tx.version > 1;
  if (!relaxed && !pushes.every(isMinimalPush)) return invalid('a push in the unlocking script is not minimal');
  const [ownerSig, ownerKey] = pushes.slice(-2).map((chunk) => chunk.data ?? []) as [number[], number[]];
  const cosignerSig = lock.cosignerKey ? (pushes[0]!.data ?? []) : undefined;
  if (!sameBytes(Hash.hash160(ownerKey), lock.ownerHash)) return invalid("the public key does not hash to the locking script's hash");
  // The interpreter strips pushes of the signature from the script it signs: where the locking script holds a
  // push equal to a signature (only the key hash could, or an inscription's push), leave it to the interpreter.
  const held = input.lockingScript.chunks.flatMap((chunk) => (chunk.data ? [chunk.data] : []));
  if ([ownerSig, cosignerSig].some((sig) => sig && held.some((data) => sameBytes(data, sig)))) return UNDECIDED;
  const owner = signatureVerdict(input, ownerSig, ownerKey, relaxed, secp);
  if (owner.verdict !== 'valid' || !lock.cosignerKey) return owner;
  return signatureVerdict(input, cosignerSig!, lock.cosignerKey, relaxed, secp);
}

/** One OP_CHECKSIG(VERIFY) of the lock: the signature's and the key's encodings, then the signature itself. */
function signatureVerdict(input: SignedInput, sig: number[], pubkey: number[], relaxed: boolean, secp: Secp256k1): Verdict {
  const parsed = parseSignature(sig, relaxed);
  if ('reason' in parsed) return parsed.reason === 'undecided' ? UNDECIDED : invalid(parsed.reason);
  const keyProblem = publicKeyProblem(pubkey);
  if (keyProblem) return invalid(keyProblem);
  const digest = sighashDigest(input, parsed.scope);
  try {
    return secp.ecdsaVerify(parsed.compact, digest, Uint8Array.from(pubkey))
      ? { verdict: 'valid' }
      : invalid('the signature does not verify');
  } catch {
    // libsecp256k1 could not parse the key (a coordinate of p or more, say): the SDK reduces such values.
    return UNDECIDED;
  }
}

type Chunk = LockingScript['chunks'][number];

/**
 * The key lock of a script, chunk by chunk (what the interpreter runs): the owner's key hash and, for the cosign
 * template, the cosigner's key; after a 1Sat inscription envelope or not. Undefined for any other script.
 */
function keyLockOf(script: LockingScript): { ownerHash: number[]; cosignerKey?: number[] } | undefined {
  const envelope = readEnvelope(script.chunks);
  const c = envelope ? envelope.rest : script.chunks;
  if (c.length !== 5 && c.length !== 7) return undefined;
  if (c[0]!.op !== OP.OP_DUP || c[1]!.op !== OP.OP_HASH160 || c[3]!.op !== OP.OP_EQUALVERIFY) return undefined;
  const hash = c[2]!;
  if (hash.op !== 20 || hash.data?.length !== 20 || hash.invalidLength === true) return undefined;
  if (c.length === 5) return c[4]!.op === OP.OP_CHECKSIG ? { ownerHash: hash.data } : undefined;
  const key = c[5]!;
  if (c[4]!.op !== OP.OP_CHECKSIGVERIFY || c[6]!.op !== OP.OP_CHECKSIG) return undefined;
  if (key.op !== 33 || key.data?.length !== 33 || key.invalidLength === true) return undefined;
  return { ownerHash: hash.data, cosignerKey: key.data };
}

/** A data push (OP_0 to OP_PUSHDATA4) whose length the script bytes did hold. */
function isPlainPush(chunk: Chunk): boolean {
  return chunk.op >= OP.OP_0 && chunk.op <= OP.OP_PUSHDATA4 && chunk.invalidLength !== true;
}

type ParsedSignature = { compact: Uint8Array; scope: number } | { reason: string };

/** The signature's checks in the interpreter's order (encoding, hash type, low S), then r and s in range. */
function parseSignature(sig: number[], relaxed: boolean): ParsedSignature {
  // An empty signature passes the encoding checks but never verifies.
  if (sig.length === 0) return { reason: 'the signature is empty' };
  if (!isChecksigFormat(sig)) return { reason: 'the signature is not strict DER' };
  let parsed: TransactionSignature;
  try {
    parsed = TransactionSignature.fromChecksigFormat(sig);
  } catch {
    return { reason: 'the signature is not strict DER' };
  }
  const scope = parsed.scope;
  const base = scope & 0x1f;
  if (base < TransactionSignature.SIGHASH_ALL || base > TransactionSignature.SIGHASH_SINGLE)
    return { reason: 'the sighash type is not defined' };
  if ((scope & TransactionSignature.SIGHASH_CHRONICLE) !== 0) {
    return relaxed ? { reason: 'undecided' } : { reason: 'the CHRONICLE sighash bit needs transaction version 2 or later' };
  }
  const r = parsed.r.toBigInt();
  let s = parsed.s.toBigInt();
  if (!relaxed && (s < 1n || s > HALF_N)) return { reason: 'the signature must have a low S value' };
  // Without FORKID the digest is the original algorithm's: rare, and the interpreter's to compute.
  if ((scope & TransactionSignature.SIGHASH_FORKID) === 0) return { reason: 'undecided' };
  if (r < 1n || r >= N || s < 1n || s >= N) return { reason: 'the signature does not verify' };
  // ECDSA accepts s and n - s alike; libsecp256k1 takes only the low one, the relaxed interpreter either.
  if (s > HALF_N) s = N - s;
  const compact = new Uint8Array(64);
  compact.set(scalarBytes(r), 0);
  compact.set(scalarBytes(s), 32);
  return { compact, scope };
}

/** The interpreter's strict public key encoding: 33 bytes after 02 or 03, 65 after 04. */
function publicKeyProblem(pubkey: number[]): string | undefined {
  if (pubkey.length === 0) return 'the public key is empty';
  if (pubkey[0] === 0x04 ? pubkey.length !== 65 : pubkey[0] === 0x02 || pubkey[0] === 0x03 ? pubkey.length !== 33 : true) {
    return 'the public key is not a compressed (33-byte) or uncompressed (65-byte) key';
  }
  return undefined;
}

/** The BIP 143 (FORKID) digest, from the same SDK routine the interpreter calls. */
function sighashDigest(input: SignedInput, scope: number): Uint8Array {
  const { tx, index } = input;
  const current = tx.inputs[index]!;
  const preimage = TransactionSignature.formatBytes({
    sourceTXID: input.sourceTXID,
    sourceOutputIndex: current.sourceOutputIndex,
    sourceSatoshis: input.sourceSatoshis,
    transactionVersion: tx.version,
    otherInputs: tx.inputs.filter((_, other) => other !== index),
    outputs: tx.outputs,
    inputIndex: index,
    subscript: input.lockingScript,
    inputSequence: current.sequence ?? 0xffffffff,
    lockTime: tx.lockTime,
    scope,
    cache: input.cache,
  });
  return createHash('sha256').update(createHash('sha256').update(preimage).digest()).digest();
}

function scalarBytes(value: bigint): Uint8Array {
  return Buffer.from(value.toString(16).padStart(64, '0'), 'hex');
}

function sameBytes(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((byte, i) => byte === b[i]);
}
