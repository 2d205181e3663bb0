import { Hash, HD, P2PKH } from '@bsv/sdk';
import { publicChild, type PublicNode } from '@ctk/chain';

/** Bounds on what is kept: each entry is a few hundred bytes. */
const MAX_XPUBS = 1_000;
const MAX_SCRIPTS = 50_000;

/** Each xpub's external chain node (m/0), parsed and derived once: the SDK's node and its key and chain code. */
const externalChains = new Map<string, { hd: HD; node: PublicNode }>();
/** Each child's receiving script, by "<xpub>/<index>": a child's script never changes. */
const scripts = new Map<string, string>();

/**
 * The P2PKH receiving script of child m/0/<index> of an xpub (docs/performance.md). A destination takes it while
 * the merchant's counter row is locked. Deriving a child from the xpub's text in @bsv/sdk's JavaScript big-number
 * arithmetic is 5.5 ms, from the external chain node kept 2.2 ms; with libsecp256k1 (publicChild) tens of
 * microseconds, the SDK deriving only where it cannot. A child derived before (a window's child handed out
 * again) costs nothing.
 */
export function childScript(xpub: string, index: number): string {
  const key = `${xpub}/${index}`;
  let script = scripts.get(key);
  if (script === undefined) {
    const chain = externalChain(xpub);
    const child = publicChild(chain.node, index);
    const hash = child ? Hash.hash160(Array.from(child.publicKey)) : (chain.hd.deriveChild(index).pubKey.toHash() as number[]);
    script = new P2PKH().lock(hash).toHex();
    keep(scripts, key, script, MAX_SCRIPTS);
  }
  return script;
}

function externalChain(xpub: string): { hd: HD; node: PublicNode } {
  let chain = externalChains.get(xpub);
  if (!chain) {
    const hd = HD.fromString(xpub).derive('m/0');
    chain = { hd, node: { publicKey: Uint8Array.from(hd.pubKey.encode(true) as number[]), chainCode: Uint8Array.from(hd.chainCode) } };
    keep(externalChains, xpub, chain, MAX_XPUBS);
  }
  return chain;
}

/** Adds to a map, dropping its oldest entry past `max`. */
function keep<V>(map: Map<string, V>, key: string, value: V, max: number): void {
  map.set(key, value);
  if (map.size > max) map.delete(map.keys().next().value!);
}
