import type { ChainClient, TxStatus } from '@ctk/chain';
import type { GetTransactionStatusResponse } from '@ctk/proto/ctk/p2p/v1/p2p';
import { AppError } from '@ctk/shared';

const TXID = /^[0-9a-fA-F]{64}$/;

/** Where a transaction stands on the chain; 404 when the chain does not know it. */
export async function transactionStatus(chain: ChainClient, txid: string): Promise<GetTransactionStatusResponse> {
  if (!TXID.test(txid))
    throw new AppError('validation_failed', `${JSON.stringify(txid.slice(0, 80))} is not a txid (64 hex characters).`, { field: 'txid' });
  const status = await chain.getStatus(txid.toLowerCase());
  if (status.state === 'unknown')
    throw new AppError('not_found', `The chain does not know transaction ${txid.toLowerCase()}.`, { txid: txid.toLowerCase() });
  return {
    txid: status.txid,
    status: status.state,
    blockHeight: status.blockHeight,
    confirmations: BigInt(await confirmations(chain, status)),
  };
}

/** ARC's status carries the block but not the depth: the chain's height then says how many blocks are on it. */
async function confirmations(chain: ChainClient, status: TxStatus): Promise<number> {
  if (status.state !== 'mined' || status.blockHeight === undefined) return 0;
  if (status.confirmations !== undefined) return status.confirmations;
  return Math.max(1, (await chain.chainInfo()).height - status.blockHeight + 1);
}
