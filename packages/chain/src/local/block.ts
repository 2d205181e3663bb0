import { Hash, MerklePath, Utils } from '@bsv/sdk';

/** Regtest's difficulty: any hash with a leading bit of 0 meets it, so a block is found in a try or two. */
export const LOCAL_BITS = 0x207fffff;
const BLOCK_VERSION = 0x20000000;

export type BlockHeader = {
  height: number;
  hash: string;
  prevHash: string;
  merkleRoot: string;
  time: number;
  bits: number;
  nonce: number;
  /** The 80 serialized bytes, hex. */
  header: string;
};

/** Hashes are shown byte-reversed (as explorers and the SDK show them); they are hashed in wire order. */
const wire = (display: string): number[] => Utils.toArray(display, 'hex').reverse();
const display = (bytes: number[]): string => Utils.toHex([...bytes].reverse());

/** Every level of the block's merkle tree, leaves first, each node in wire order; the last level is the root. */
export function merkleLevels(txids: string[]): number[][][] {
  if (txids.length === 0) throw new Error('A block has at least its coinbase transaction.');
  const levels = [txids.map(wire)];
  for (let level = levels[0]!; level.length > 1;) {
    const next: number[][] = [];
    for (let i = 0; i < level.length; i += 2) {
      const left = level[i]!;
      const right = level[i + 1] ?? left;
      next.push(Hash.hash256([...left, ...right]));
    }
    levels.push(next);
    level = next;
  }
  return levels;
}

export function merkleRootOf(levels: number[][][]): string {
  return display(levels[levels.length - 1]![0]!);
}

/** The BRC-74 merkle path of the transaction at `index`: its sibling at every level up to the root. */
export function merklePathFor(levels: number[][][], index: number, blockHeight: number): MerklePath {
  const txid = display(levels[0]![index]!);
  if (levels.length === 1) return new MerklePath(blockHeight, [[{ offset: 0, hash: txid, txid: true }]]);
  const path = levels.slice(0, -1).map((level, height) => {
    const offset = (index >> height) ^ 1;
    const node = level[offset];
    return [node ? { offset, hash: display(node) } : { offset, duplicate: true }];
  });
  path[0] = [{ offset: index, hash: txid, txid: true }, ...path[0]!].sort((a, b) => a.offset - b.offset);
  return new MerklePath(blockHeight, path);
}

function serializeHeader(prevHash: string, merkleRoot: string, time: number, bits: number, nonce: number): number[] {
  const writer = new Utils.Writer();
  writer.writeUInt32LE(BLOCK_VERSION);
  writer.write(wire(prevHash));
  writer.write(wire(merkleRoot));
  writer.writeUInt32LE(time);
  writer.writeUInt32LE(bits);
  writer.writeUInt32LE(nonce);
  return writer.toArray();
}

/** The target a block hash must not exceed, from the compact `bits`. */
function targetOf(bits: number): bigint {
  const exponent = bits >>> 24;
  const mantissa = BigInt(bits & 0x007fffff);
  return exponent <= 3 ? mantissa >> BigInt(8 * (3 - exponent)) : mantissa << BigInt(8 * (exponent - 3));
}

/** A real header: previous hash, merkle root, time and bits, with a nonce that meets the target. */
export function mineHeader(input: { height: number; prevHash: string; merkleRoot: string; time: number; bits?: number }): BlockHeader {
  const bits = input.bits ?? LOCAL_BITS;
  const target = targetOf(bits);
  for (let nonce = 0; nonce <= 0xffffffff; nonce++) {
    const bytes = serializeHeader(input.prevHash, input.merkleRoot, input.time, bits, nonce);
    const hash = display(Hash.hash256(bytes));
    if (BigInt(`0x${hash}`) <= target) {
      return {
        height: input.height,
        hash,
        prevHash: input.prevHash,
        merkleRoot: input.merkleRoot,
        time: input.time,
        bits,
        nonce,
        header: Utils.toHex(bytes),
      };
    }
  }
  throw new Error('No nonce meets the target; change the time and try again.');
}

export const GENESIS_PREV_HASH = '0'.repeat(64);
