import { LockingScript, OP, Script, Utils, type Transaction } from '@bsv/sdk';
import { AppError } from '@ctk/shared';

/** The protocol prefix and version every receipt output starts with, after OP_FALSE OP_RETURN. */
export const RECEIPT_PROTOCOL = 'ctk.receipt';
export const RECEIPT_VERSION = '1';

const MAX_MERCHANT_BYTES = 255;
const MAX_REFERENCE_BYTES = 100;

export type Receipt = {
  /** Who was paid: a paymail (`cafe@shop.example`) or another identifier of the merchant. */
  merchant: string;
  /** The order reference the merchant issued (e.g. its order number). */
  reference: string;
  /** SHA-256 of the order lines' canonical encoding (`hashOrderLines`), 64 hex characters. */
  linesHash: string;
};

/**
 * The receipt output's locking script: `OP_FALSE OP_RETURN "ctk.receipt" "1" <merchant> <reference>
 * <linesHash>`, the first four pushes UTF-8 text and the last the 32 bytes of the hash. It goes into
 * the payment transaction with 0 satoshis.
 */
export function receiptScript(receipt: Receipt): LockingScript {
  const merchant = textBytes(receipt.merchant, 'merchant', MAX_MERCHANT_BYTES);
  const reference = textBytes(receipt.reference, 'reference', MAX_REFERENCE_BYTES);
  if (!/^[0-9a-f]{64}$/i.test(receipt.linesHash))
    throw new AppError('validation_failed', 'The lines hash must be 32 bytes in hex (64 characters).');
  const script = new LockingScript();
  script.writeOpCode(OP.OP_FALSE).writeOpCode(OP.OP_RETURN);
  for (const push of [
    Utils.toArray(RECEIPT_PROTOCOL, 'utf8'),
    Utils.toArray(RECEIPT_VERSION, 'utf8'),
    merchant,
    reference,
    Utils.toArray(receipt.linesHash, 'hex'),
  ])
    script.writeBin(push);
  return script;
}

/** The receipt in a locking script (a Script or its hex), or undefined when the script is not one of ours. */
export function parseReceipt(script: Script | string): Receipt | undefined {
  const bytes = typeof script === 'string' ? hexBytes(script) : script.toBinary();
  if (!bytes || bytes[0] !== OP.OP_FALSE || bytes[1] !== OP.OP_RETURN) return undefined;
  const pushes = dataPushes(bytes.slice(2));
  if (!pushes || pushes.length !== 5) return undefined;
  const [protocol, version, merchant, reference, linesHash] = pushes as [number[], number[], number[], number[], number[]];
  if (Utils.toUTF8(protocol) !== RECEIPT_PROTOCOL || Utils.toUTF8(version) !== RECEIPT_VERSION) return undefined;
  if (
    linesHash.length !== 32 ||
    merchant.length === 0 ||
    merchant.length > MAX_MERCHANT_BYTES ||
    reference.length === 0 ||
    reference.length > MAX_REFERENCE_BYTES
  )
    return undefined;
  const text = [decodeUtf8(merchant), decodeUtf8(reference)];
  if (text[0] === undefined || text[1] === undefined) return undefined;
  return { merchant: text[0], reference: text[1], linesHash: Utils.toHex(linesHash) };
}

/** The first receipt output of a transaction, with its index. */
export function findReceipt(tx: Transaction): (Receipt & { vout: number }) | undefined {
  for (const [vout, output] of tx.outputs.entries()) {
    const receipt = parseReceipt(output.lockingScript);
    if (receipt) return { ...receipt, vout };
  }
  return undefined;
}

function textBytes(value: string, field: string, max: number): number[] {
  const bytes = Utils.toArray(value, 'utf8');
  if (bytes.length === 0 || bytes.length > max)
    throw new AppError('validation_failed', `The receipt's ${field} must be 1 to ${max} bytes of UTF-8.`);
  return bytes;
}

/** Only pushes of data: anything else after OP_RETURN is not a receipt. */
function dataPushes(bytes: number[]): number[][] | undefined {
  let chunks;
  try {
    chunks = Script.fromBinary(bytes).chunks;
  } catch {
    return undefined;
  }
  if (chunks.some((chunk) => chunk.op > OP.OP_PUSHDATA4 || (chunk.op > 0 && !chunk.data))) return undefined;
  if (chunks.some((chunk) => chunk.op === 0)) return undefined;
  if (Utils.toHex(new Script(chunks).toBinary()) !== Utils.toHex(bytes)) return undefined;
  return chunks.map((chunk) => chunk.data ?? []);
}

function hexBytes(hex: string): number[] | undefined {
  return /^(?:[0-9a-f]{2})*$/i.test(hex) ? Utils.toArray(hex, 'hex') : undefined;
}

function decodeUtf8(bytes: number[]): string | undefined {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(bytes));
  } catch {
    return undefined;
  }
}
