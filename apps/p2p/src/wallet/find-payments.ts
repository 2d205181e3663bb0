import { HISTORIES_AT_ONCE, networkAddress, type ChainClient } from '@ctk/chain';
import type { FindPaymentsResponse, FoundPayment } from '@ctk/proto/ctk/p2p/v1/p2p';
import { AppError } from '@ctk/shared';

const MAX_ADDRESSES = 100;
/**
 * Requests to the chain API in flight at once, each the histories of HISTORIES_AT_ONCE addresses: a round of the
 * watcher is background work, which must not take the process from the requests it serves. Measured with
 * `pnpm bench:checkout` (docs/performance.md, session 31): with one address a request, six at a time held
 * checkouts up (p99 at a steady 100/s 256 to 507 ms), two at a time did not (118 to 229 ms).
 */
const CONCURRENCY = 2;

/** The transactions the chain knows paying to (or spending from) each address: its history, mempool included. */
export async function findPayments(chain: ChainClient, addresses: readonly string[]): Promise<FindPaymentsResponse> {
  if (addresses.length > MAX_ADDRESSES)
    throw new AppError('validation_failed', `At most ${MAX_ADDRESSES} addresses at once; got ${addresses.length}.`, { field: 'addresses' });
  const checked = [...new Set(addresses.map((address, index) => networkAddress(address, chain.network, `addresses[${index}]`)))];
  const groups: string[][] = [];
  for (let start = 0; start < checked.length; start += HISTORIES_AT_ONCE) groups.push(checked.slice(start, start + HISTORIES_AT_ONCE));
  const found: FoundPayment[][] = new Array(groups.length);
  let next = 0;
  const worker = async () => {
    for (let index = next++; index < groups.length; index = next++) {
      const histories = await chain.histories(groups[index]!);
      found[index] = groups[index]!.flatMap((address) =>
        (histories.get(address) ?? []).map((entry) => ({ address, txid: entry.txid, height: entry.height })),
      );
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, groups.length) }, worker));
  return { payments: found.flat() };
}
