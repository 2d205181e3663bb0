const TXID = '[0-9a-f]{64}';
const ADDRESS = '[1-9A-HJ-NP-Za-km-z]{26,35}';
const HEIGHT = '\\d{1,10}';

/**
 * The chain API routes the passthrough serves (WhatsOnChain's paths, under the network's base URL):
 * reads only, and the broadcast. Anything else is refused before a request leaves this service.
 */
export const PASSTHROUGH_READS: readonly RegExp[] = [
  'chain/info',
  'block/headers',
  `block/(${HEIGHT}|${TXID})/header`,
  `block/height/${HEIGHT}`,
  `block/hash/${TXID}`,
  `tx/hash/${TXID}`,
  `tx/${TXID}/hex`,
  `tx/${TXID}/proof/tsc`,
  `address/${ADDRESS}/(unspent|history|balance)`,
].map((pattern) => new RegExp(`^${pattern}$`));

/** WhatsOnChain's broadcast route, `POST tx/raw {"txhex"}`, served through the chain client (ARC). */
export const PASSTHROUGH_BROADCAST = 'tx/raw';

export function isAllowedRead(path: string): boolean {
  return PASSTHROUGH_READS.some((pattern) => pattern.test(path));
}
