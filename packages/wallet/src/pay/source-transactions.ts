import type { Transaction } from '@bsv/sdk';
import type { ChainClient } from '@ctk/chain';
import { AppError } from '@ctk/shared';

const MAX_UNMINED_ANCESTORS = 200;

/** The transaction that created a coin: what signing needs (its output's satoshis and script). */
export async function sourceTransaction(chain: ChainClient, txid: string, cache: Map<string, Transaction>): Promise<Transaction> {
  const known = cache.get(txid);
  if (known) return known;
  const found = await chain.getTransaction(txid);
  if (!found) throw new AppError('failed_precondition', `The chain lists a coin of transaction ${txid} but does not have the transaction.`);
  cache.set(txid, found.tx);
  return found.tx;
}

/**
 * Makes a signed transaction ready for BEEF: every unmined ancestor with its own source transactions,
 * down to mined ones, which carry their merkle paths.
 */
export async function proveAncestry(chain: ChainClient, tx: Transaction, seen = new Set<string>()): Promise<void> {
  for (const input of tx.inputs) {
    const source = input.sourceTransaction;
    if (!source) throw new AppError('failed_precondition', 'A transaction input has no source transaction to prove.');
    const txid = source.id('hex');
    if (source.merklePath || seen.has(txid)) continue;
    seen.add(txid);
    if (seen.size > MAX_UNMINED_ANCESTORS)
      throw new AppError(
        'failed_precondition',
        `Too many unmined ancestors to send as BEEF (over ${MAX_UNMINED_ANCESTORS}): wait for a block and retry.`,
      );
    const status = await chain.getStatus(txid);
    if (status.state === 'mined' && status.merklePath) {
      source.merklePath = status.merklePath;
      continue;
    }
    const cache = new Map<string, Transaction>();
    for (const parentInput of source.inputs)
      parentInput.sourceTransaction ??= await sourceTransaction(chain, parentInput.sourceTXID as string, cache);
    await proveAncestry(chain, source, seen);
  }
}
