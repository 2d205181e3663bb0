import { MerklePath } from '@bsv/sdk';

/** A merkle proof in the TSC format WhatsOnChain serves: siblings bottom-up, "*" for a duplicated node. */
export type TscProof = { index: number; txOrId: string; target: string; nodes: string[] };

/** The same proof as @bsv/sdk's MerklePath (BRC-74), given the height of the block the target names. */
export function tscToMerklePath(txid: string, proof: TscProof, blockHeight: number): MerklePath {
  if (proof.nodes.length === 0) return new MerklePath(blockHeight, [[{ offset: 0, hash: txid, txid: true }]]);
  const path = proof.nodes.map((node, height) => {
    const offset = (proof.index >> height) ^ 1;
    return [node === '*' ? { offset, duplicate: true } : { offset, hash: node }];
  });
  path[0] = [{ offset: proof.index, hash: txid, txid: true }, ...path[0]!].sort((a, b) => a.offset - b.offset);
  return new MerklePath(blockHeight, path);
}
