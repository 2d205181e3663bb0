import { networkAddress, type ChainClient } from '@ctk/chain';
import type { FindPaymentsResponse, FoundPayment } from '@ctk/proto/ctk/p2p/v1/p2p';
import { AppError } from '@ctk/shared';

const MAX_ADDRESSES = 100;
/**
 * Lookups in flight at once: a watcher's 100 addresses must not become 100 simultaneous requests to the chain API,
 * and a round of the watcher is background work, which must not take the process from the requests it serves.
 * Measured with `pnpm bench:checkout` (docs/performance.md, session 31): at 6, the rounds held checkouts up (p99 at
 * a steady 100/s 256 to 507 ms, 133 to 156 checkouts/s at full load); at 2, p99 118 to 229 ms and 199 to 203/s.
 * A round of N addresses takes about N / 2 of the chain API's answer times.
 */
const CONCURRENCY = 2;

/** The transactions the chain knows paying to (or spending from) each address: its history, mempool included. */
export async function findPayments(chain: ChainClient, addresses: readonly string[]): Promise<FindPaymentsResponse> {
  if (addresses.length > MAX_ADDRESSES)
    throw new AppError('validation_failed', `At most ${MAX_ADDRESSES} addresses at once; got ${addresses.length}.`, { field: 'addresses' });
  const checked = [...new Set(addresses.map((address, index) => networkAddress(address, chain.network, `addresses[${index}]`)))];
  const found: FoundPayment[][] = new Array(checked.length);
  let next = 0;
  const worker = async () => {
    for (let index = next++; index < checked.length; index = next++) {
      const address = checked[index]!;
      const history = await chain.history(address);
      found[index] = history.map((entry) => ({ address, txid: entry.txid, height: entry.height }));
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, checked.length) }, worker));
  return { payments: found.flat() };
}
