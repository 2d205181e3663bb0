import { decodeTransaction, hexToBytes } from '@ctk/chain';
import { AppError } from '@ctk/shared';
import { z } from 'zod';

/** A transaction as hex: 10 MB of bytes at most. */
const MAX_TRANSACTION_HEX = 20_000_000;

/** The transaction of a BIP270 Payment (an order's, or a refund's): hex, present, within its bound. */
export const transactionHex = z
  .string()
  .min(1, 'transaction is required: the payment transaction in hex')
  .max(MAX_TRANSACTION_HEX, 'transaction is too large');

/** The txid of a Payment's transaction (raw, EF or BEEF); a 422 naming `transaction` when it is none. */
export function txidOf(hex: string): string {
  try {
    return decodeTransaction(hexToBytes(hex)).txid;
  } catch (error) {
    throw new AppError(
      'validation_failed',
      `transaction is not a transaction in hex (raw, EF or BEEF): ${error instanceof Error ? error.message : 'unreadable'}`,
      { field: 'transaction' },
    );
  }
}
