import { OP, Utils, type ScriptChunk } from '@bsv/sdk';
import { isPush, pushChunk } from './inscription-envelope.js';

/** The owner's lock after the envelope: P2PKH, or MNEE's cosign template when a cosigner key is given. */
export function ownerLockChunks(ownerPkh: number[], cosignerPublicKey?: number[]): ScriptChunk[] {
  const head = [{ op: OP.OP_DUP }, { op: OP.OP_HASH160 }, pushChunk(ownerPkh), { op: OP.OP_EQUALVERIFY }];
  if (!cosignerPublicKey) return [...head, { op: OP.OP_CHECKSIG }];
  return [...head, { op: OP.OP_CHECKSIGVERIFY }, pushChunk(cosignerPublicKey), { op: OP.OP_CHECKSIG }];
}

/**
 * Who may spend an output whose script ends in these chunks: `OP_DUP OP_HASH160 <20 bytes> OP_EQUALVERIFY
 * OP_CHECKSIG`, or `... OP_EQUALVERIFY OP_CHECKSIGVERIFY <33-byte compressed key> OP_CHECKSIG`; undefined
 * for any other lock.
 */
export function readOwnerLock(chunks: readonly ScriptChunk[]): { ownerPkh: string; cosignerPublicKey?: string } | undefined {
  const [dup, hash160, pkh, equalVerify, ...tail] = chunks;
  if (dup?.op !== OP.OP_DUP || hash160?.op !== OP.OP_HASH160 || equalVerify?.op !== OP.OP_EQUALVERIFY) return undefined;
  if (!pkh || !isPush(pkh) || pkh.op !== 20) return undefined;
  const ownerPkh = Utils.toHex(pkh.data!);
  if (tail.length === 1 && tail[0]!.op === OP.OP_CHECKSIG) return { ownerPkh };
  if (tail.length !== 3) return undefined;
  const [checksigVerify, key, checksig] = tail as [ScriptChunk, ScriptChunk, ScriptChunk];
  if (checksigVerify.op !== OP.OP_CHECKSIGVERIFY || checksig.op !== OP.OP_CHECKSIG || !isPush(key) || key.op !== 33) return undefined;
  if (key.data![0] !== 0x02 && key.data![0] !== 0x03) return undefined;
  return { ownerPkh, cosignerPublicKey: Utils.toHex(key.data!) };
}
