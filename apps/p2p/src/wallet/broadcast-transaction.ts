import { decodeTransaction, hexToBytes, type ChainClient } from '@ctk/chain';
import type { BroadcastTransactionResponse } from '@ctk/proto/ctk/p2p/v1/p2p';
import { AppError, validate } from '@ctk/shared';
import { z } from 'zod';

/** The wallet API's transaction: hex exactly (whole bytes, no spaces), at most 2,000,000 characters. */
const walletTransaction = z.object({
  transaction: z
    .string()
    .regex(/^([0-9a-fA-F]{2})+$/, 'a raw, EF or BEEF transaction in hex')
    .max(2_000_000),
});

/** The wallet API's broadcast: its transaction's shape checked first, naming `transaction`. */
export function broadcastSigned(chain: ChainClient, transaction: string): Promise<BroadcastTransactionResponse> {
  return broadcastTransaction(chain, validate(walletTransaction, { transaction }).transaction);
}

/**
 * Broadcasts a transaction the caller signed (raw, EF or BEEF, hex). It is parsed first, so that what is
 * not a transaction is a clear 422 here, naming the caller's `field`; the chain's refusal (`chain_rejected`) comes back as ARC gave it.
 */
export async function broadcastTransaction(
  chain: ChainClient,
  transaction: string,
  field = 'transaction',
): Promise<BroadcastTransactionResponse> {
  const hex = transaction.trim();
  try {
    decodeTransaction(hexToBytes(hex));
  } catch (error) {
    throw new AppError(
      'validation_failed',
      `"${field}" is not a raw, EF or BEEF transaction in hex: ${error instanceof Error ? error.message : String(error)}.`,
      { field },
    );
  }
  const status = await chain.broadcast(hex);
  return { txid: status.txid, state: status.state, arcStatus: status.arcStatus || undefined };
}
