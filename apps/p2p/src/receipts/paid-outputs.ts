import type { Transaction } from '@bsv/sdk';
import { addressOfScript, type ChainNetwork } from '@ctk/chain';
import type { ReceiptOutput } from '@ctk/proto/ctk/p2p/v1/p2p';

/**
 * The outputs a purchase paid: those before its receipt output. The receipt closes the outputs the
 * payment request asked for (paymail P2P destinations, BIP270 requests and the wallet put the requested
 * outputs first, the receipt last, the payer's change after it), so what follows the receipt is not paid
 * to the merchant (docs/decisions/0008-receipts.md).
 */
export function paidOutputs(tx: Transaction, receiptVout: number, network: ChainNetwork): ReceiptOutput[] {
  return tx.outputs.slice(0, receiptVout).map((output, vout) => {
    const script = output.lockingScript.toHex();
    return { vout, satoshis: BigInt(output.satoshis ?? 0), address: addressOfScript(script, network), script };
  });
}
