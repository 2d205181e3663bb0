import { decodeTransaction, hashOrderLines, hexToBytes, receiptScript, type OrderLine as ReceiptLine } from '@ctk/chain';
import type { ChosenModifier } from './price-order.js';

type Line = { itemId: string | null; name: string; quantity: bigint; unitPriceMinor: bigint; modifiers: readonly ChosenModifier[] };

/** The receipt's merchant: the organisation's paymail on the public host, `<handle>@<hostname>` as paymail names it. */
export function receiptMerchant(handle: string, publicUrl: string): string {
  return `${handle}@${new URL(publicUrl).hostname}`;
}

/**
 * The lines the receipt output commits to (decision 0015): each line's name with its modifiers and its
 * unit price with them, then a `Tip` line when there is a tip.
 */
export function receiptLines(lines: readonly Line[], tipMinor: bigint, currency: string): ReceiptLine[] {
  const receipt = lines.map((line) => ({
    item_id: line.itemId,
    name: line.modifiers.length ? `${line.name} (${line.modifiers.map((modifier) => modifier.name).join(', ')})` : line.name,
    quantity: Number(line.quantity),
    unit_price_minor: Number(line.unitPriceMinor),
    currency,
  }));
  if (tipMinor > 0n) receipt.push({ item_id: null, name: 'Tip', quantity: 1, unit_price_minor: Number(tipMinor), currency });
  return receipt;
}

export function linesHashOf(lines: readonly Line[], tipMinor: bigint, currency: string): string {
  return hashOrderLines(receiptLines(lines, tipMinor, currency));
}

/** The receipt output's locking script in hex: OP_FALSE OP_RETURN "ctk.receipt" "1" merchant reference hash. */
export function receiptScriptHex(order: { receiptMerchant: string; orderNumber: string; linesHash: string }): string {
  return receiptScript({ merchant: order.receiptMerchant, reference: order.orderNumber, linesHash: order.linesHash }).toHex();
}

/**
 * The index of the order's receipt output in a transaction (hex, raw, EF or BEEF) the payer submitted,
 * or null when it carries none: a loyalty stamp of the order is bound to it (decision 0017).
 */
export function receiptVoutOf(
  transactionHex: string,
  order: { receiptMerchant: string; orderNumber: string; linesHash: string },
): number | null {
  const script = receiptScriptHex(order);
  const vout = decodeTransaction(hexToBytes(transactionHex)).tx.outputs.findIndex((output) => output.lockingScript.toHex() === script);
  return vout >= 0 ? vout : null;
}
