import { ATOMIC_BEEF, Beef, BEEF_V1, BEEF_V2, Transaction, Utils } from '@bsv/sdk';

export type TxFormat = 'raw' | 'ef' | 'beef';

export type DecodedTransaction = {
  format: TxFormat;
  /** The transaction itself (for BEEF, the subject: the atomic txid, or the last transaction). */
  tx: Transaction;
  txid: string;
  beef?: Beef;
};

const EF_MARKER = '0000000000ef';

/** Which encoding the bytes are in: BEEF by its version prefix, EF by its marker after the version, else raw. */
export function detectFormat(bytes: Uint8Array): TxFormat {
  if (bytes.length >= 4) {
    const version = (bytes[0]! | (bytes[1]! << 8) | (bytes[2]! << 16) | (bytes[3]! << 24)) >>> 0;
    if (version === BEEF_V1 || version === BEEF_V2 || version === ATOMIC_BEEF) return 'beef';
  }
  if (bytes.length >= 10 && Utils.toHex(Array.from(bytes.subarray(4, 10))) === EF_MARKER) return 'ef';
  return 'raw';
}

/**
 * Parses a raw, EF (BRC-30) or BEEF (BRC-62/95) transaction with @bsv/sdk. Throws when the bytes are not
 * one, including when bytes are left over after a raw or EF transaction.
 */
export function decodeTransaction(bytes: Uint8Array): DecodedTransaction {
  const format = detectFormat(bytes);
  if (format === 'beef') {
    const beef = Beef.fromBinary(bytes);
    const last = beef.txs[beef.txs.length - 1];
    const txid = beef.atomicTxid ?? last?.txid;
    const tx = txid ? beef.findAtomicTransaction(txid) : undefined;
    if (!txid || !tx) throw new Error('the BEEF holds no transaction to broadcast');
    return { format, tx, txid, beef };
  }
  const parsed = format === 'ef' ? Transaction.fromEF(bytes) : Transaction.fromBinary(bytes);
  // The SDK's reader does not stop at the end of the bytes, and fromBinary keeps the bytes it was given:
  // only a fresh serialization that gives the same bytes back shows they were one whole transaction.
  const tx = new Transaction(parsed.version, parsed.inputs, parsed.outputs, parsed.lockTime);
  const again = format === 'ef' ? tx.toEF() : tx.toBinary();
  if (again.length !== bytes.length || again.some((byte, i) => byte !== bytes[i]))
    throw new Error('the bytes are not one whole transaction');
  return { format, tx, txid: tx.id('hex'), beef: undefined };
}

/** The bytes of a hex string (either case); throws 'not hex' for anything else, an odd length included. */
export function hexToBytes(hex: string): Uint8Array {
  if (hex.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(hex)) throw new Error('not hex');
  return Uint8Array.from(Buffer.from(hex, 'hex'));
}
