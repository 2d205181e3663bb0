import { Hash, Utils } from '@bsv/sdk';
import { describe, expect, it } from 'vitest';
import { tscToMerklePath } from '../client/tsc-proof.js';
import { LOCAL_BITS, merkleLevels, merklePathFor, merkleRootOf, mineHeader } from './block.js';

const txids = (n: number) => Array.from({ length: n }, (_, i) => Utils.toHex(Hash.sha256(`tx ${i}`)));

describe('blocks', () => {
  it.each([1, 2, 3, 5, 8, 9, 16, 17])('gives every transaction of a %i-transaction block a merkle path to its root', (n) => {
    const ids = txids(n);
    const levels = merkleLevels(ids);
    const root = merkleRootOf(levels);
    ids.forEach((txid, index) => {
      const path = merklePathFor(levels, index, 7);
      expect(path.blockHeight).toBe(7);
      expect(path.computeRoot(txid)).toBe(root);
    });
  });

  it('computes the root of a known block: two transactions hashed in wire order', () => {
    const [a, b] = txids(2) as [string, string];
    const wire = (hex: string) => Utils.toArray(hex, 'hex').reverse();
    const expected = Utils.toHex(Hash.hash256([...wire(a), ...wire(b)]).reverse());
    expect(merkleRootOf(merkleLevels([a, b]))).toBe(expected);
  });

  it('mines a header whose hash is the double SHA-256 of its 80 bytes and meets the target', () => {
    const header = mineHeader({ height: 3, prevHash: 'ab'.repeat(32), merkleRoot: 'cd'.repeat(32), time: 1_700_000_000 });
    const bytes = Utils.toArray(header.header, 'hex');
    expect(bytes).toHaveLength(80);
    expect(Utils.toHex(Hash.hash256(bytes).reverse())).toBe(header.hash);
    expect(header.bits).toBe(LOCAL_BITS);
    expect(BigInt(`0x${header.hash}`) <= 0x7fffffn << 232n).toBe(true);
    expect(Utils.toHex(bytes.slice(4, 36).reverse())).toBe('ab'.repeat(32));
  });

  it('turns a TSC proof back into the same merkle path', () => {
    const ids = txids(11);
    const levels = merkleLevels(ids);
    const index = 10;
    const path = merklePathFor(levels, index, 5);
    const nodes = path.path.map((level, height) => {
      const sibling = level.find((leaf) => leaf.offset === ((index >> height) ^ 1))!;
      return sibling.duplicate ? '*' : sibling.hash!;
    });
    expect(nodes).toContain('*');
    const converted = tscToMerklePath(ids[index]!, { index, txOrId: ids[index]!, target: 'ff'.repeat(32), nodes }, 5);
    expect(converted.toHex()).toBe(path.toHex());
    expect(converted.computeRoot(ids[index]!)).toBe(merkleRootOf(levels));
  });
});
