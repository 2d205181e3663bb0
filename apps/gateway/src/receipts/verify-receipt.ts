import { findReceipt, hashOrderLines, type ChainClient, type OrderLine, type TxStatus } from '@ctk/chain';
import { AppError } from '@ctk/shared';
import type { z } from 'zod';
import { outputView } from './output-view.js';
import type { linesCheck, receiptVerification } from './receipt-answers.js';

export type LinesCheck = z.infer<typeof linesCheck>;
export type ReceiptVerification = z.infer<typeof receiptVerification>;

/**
 * Verifies a purchase from its txid against the chain this instance is configured with: the receipt
 * output, the outputs it paid, whether it is mined with a merkle path leading to the chain's block
 * header, and, when the caller gives the order lines, whether they hash to the receipt's lines hash.
 */
export async function verifyReceipt(chain: ChainClient, txid: string, lines?: OrderLine[]): Promise<ReceiptVerification> {
  const found = await chain.getTransaction(txid);
  if (!found) throw new AppError('not_found', `The chain (${chain.network}) has no transaction ${txid}.`, { txid });
  const receipt = findReceipt(found.tx);
  if (!receipt) throw new AppError('not_found', `Transaction ${txid} carries no receipt.`, { txid });

  const { status } = found;
  const merkleProof =
    status.state !== 'mined'
      ? null
      : !status.merklePath
        ? 'missing'
        : (await chain.verifyMerkleProof(txid, status.merklePath))
          ? 'valid'
          : 'invalid';
  const linesCheck: LinesCheck = lines
    ? { status: hashOrderLines(lines) === receipt.linesHash ? 'match' : 'mismatch', items: lines }
    : { status: 'unknown', items: null };
  const verdict = judge(status, merkleProof, linesCheck);

  return {
    txid,
    merchant: receipt.merchant,
    reference: receipt.reference,
    lines_hash: receipt.linesHash,
    receipt_vout: receipt.vout,
    paid_outputs: found.tx.outputs.flatMap((output, vout) => (vout === receipt.vout ? [] : [outputView(output, vout, chain.network)])),
    status: status.state,
    block_height: status.blockHeight ?? null,
    block_hash: status.blockHash ?? null,
    confirmations: status.confirmations ?? 0,
    merkle_proof: merkleProof,
    lines: linesCheck,
    ...verdict,
  };
}

function judge(status: TxStatus, merkleProof: ReceiptVerification['merkle_proof'], lines: LinesCheck): { verified: boolean; why: string } {
  if (lines.status === 'mismatch') return { verified: false, why: "The order lines given do not hash to the receipt's lines hash." };
  if (status.state === 'seen' || status.state === 'pending')
    return { verified: false, why: 'The transaction is in the mempool, not yet mined.' };
  if (status.state !== 'mined') return { verified: false, why: `The chain reports the transaction as ${status.state}.` };
  if (merkleProof !== 'valid')
    return {
      verified: false,
      why:
        merkleProof === 'missing'
          ? 'The chain gave no merkle path for the mined transaction.'
          : "The merkle path does not lead to the chain's block header.",
    };
  const what =
    lines.status === 'match' ? 'and the order lines match its hash' : 'the order lines were not given, only their hash is on chain';
  return { verified: true, why: `Mined in block ${status.blockHeight} with a merkle path to the chain's block header; ${what}.` };
}
