import type { Transaction } from '@bsv/sdk';
import { AppError } from '@ctk/shared';
import type { ChainClient, TxStatus } from '../client/types.js';
import { decodeTransaction, hexToBytes, type TxFormat } from '../tx-format.js';
import type { PaymentSource } from './verify-payment.js';

const TXID = /^[0-9a-f]{64}$/;
const REFUSED_STATES = new Set(['rejected', 'double_spend']);

/** A payment found: a transaction the chain has (with its status), or one submitted (with its bytes, to broadcast). */
export type FoundPayment = { txid: string; tx: Transaction; bytes?: Uint8Array; format?: TxFormat; status?: TxStatus };

/** The transaction a payment names: looked up by txid (`not_found` when the chain has none), or decoded as submitted. */
export async function findPayment(chain: ChainClient, payment: PaymentSource): Promise<FoundPayment> {
  return 'txid' in payment ? lookUp(chain, payment.txid) : decode(payment.transaction);
}

/**
 * Where the chain has the payment: a submitted transaction is broadcast (ARC's refusal is `chain_rejected`, e.g.
 * a double spend or a bad signature); one looked up must not be refused either.
 */
export async function acceptedStatus(chain: ChainClient, found: FoundPayment): Promise<TxStatus> {
  const status = found.bytes ? await chain.broadcast(found.bytes) : found.status!;
  if (REFUSED_STATES.has(status.state)) {
    throw new AppError('chain_rejected', `The chain refused transaction ${found.txid} (${status.arcStatus ?? status.state}).`, {
      txid: found.txid,
      tx_status: status.arcStatus ?? status.state,
      competing_txs: status.competingTxs ?? [],
    });
  }
  return status;
}

async function lookUp(chain: ChainClient, txid: string): Promise<FoundPayment> {
  if (!TXID.test(txid))
    throw new AppError('validation_failed', `${JSON.stringify(txid)} is not a txid (64 lowercase hex characters).`, { field: 'txid' });
  const known = await chain.getTransaction(txid);
  if (!known) throw new AppError('not_found', `The chain does not know transaction ${txid}.`, { txid });
  return { txid, tx: known.tx, status: known.status };
}

function decode(transaction: Uint8Array | string): FoundPayment {
  let bytes: Uint8Array;
  try {
    bytes = typeof transaction === 'string' ? hexToBytes(transaction.trim()) : transaction;
    const decoded = decodeTransaction(bytes);
    return { txid: decoded.txid, tx: decoded.tx, bytes, format: decoded.format };
  } catch (error) {
    throw new AppError(
      'validation_failed',
      `Not a raw, EF or BEEF transaction: ${error instanceof Error ? error.message : String(error)}.`,
      { field: 'transaction' },
    );
  }
}
