import { Beef, type Transaction } from '@bsv/sdk';
import type { ChainClient } from '@ctk/chain';
import { AppError } from '@ctk/shared';

/**
 * SPV of a submitted BEEF (BRC-62, or Atomic BEEF BRC-95): the subject transaction (the atomic txid, else
 * the last) proves itself against the chain's headers: merkle paths of mined ancestors, scripts and amounts
 * of unmined ones.
 */
export async function provePayment(bytes: Uint8Array, chain: ChainClient): Promise<{ txid: string; tx: Transaction }> {
  let tx: Transaction | undefined;
  try {
    const beef = Beef.fromBinary(Array.from(bytes));
    const txid = beef.atomicTxid ?? beef.txs.at(-1)?.txid;
    tx = txid ? beef.findAtomicTransaction(txid) : undefined;
  } catch (error) {
    throw new AppError(
      'validation_failed',
      `The payment is not a BEEF transaction: ${error instanceof Error ? error.message : String(error)}.`,
      {
        field: 'transaction',
      },
    );
  }
  if (!tx) throw new AppError('validation_failed', 'The BEEF holds no transaction.', { field: 'transaction' });
  let proven = false;
  try {
    proven = await tx.verify(chain.chainTracker);
  } catch (error) {
    throw new AppError(
      'payment_invalid',
      `The transaction does not prove itself: ${error instanceof Error ? error.message : String(error)}.`,
      {
        txid: tx.id('hex'),
      },
    );
  }
  if (!proven)
    throw new AppError('payment_invalid', 'The transaction does not prove itself: a script or merkle path fails SPV.', {
      txid: tx.id('hex'),
    });
  return { txid: tx.id('hex'), tx };
}
