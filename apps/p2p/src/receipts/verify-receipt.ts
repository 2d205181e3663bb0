import { findReceipt, hashOrderLines, orderLinesSchema, type ChainClient, type OrderLine, type TxStatus } from '@ctk/chain';
import type { VerifyReceiptRequest, VerifyReceiptResponse } from '@ctk/proto/ctk/p2p/v1/p2p';
import { AppError, validate } from '@ctk/shared';
import { z } from 'zod';
import { paidOutputs } from './paid-outputs.js';

const txidSchema = z
  .string()
  .regex(/^[0-9a-fA-F]{64}$/, 'a txid is 64 hex characters')
  .transform((txid) => txid.toLowerCase());
// Wrapped so that a refusal names the line's field as the API spells it: `lines.0.quantity`.
const linesSchema = z.object({ lines: orderLinesSchema });

type MerkleProof = 'valid' | 'invalid' | 'missing' | undefined;
type LinesStatus = 'unknown' | 'match' | 'mismatch';

/**
 * Verifies a purchase from its txid against the chain this instance is configured with: the receipt
 * output, the outputs it paid, whether it is mined with a merkle path leading to the chain's block
 * header, and, when the caller gives the order lines, whether they hash to the receipt's lines hash.
 * Nothing comes from a database, so every instance on the same chain answers the same.
 */
export async function verifyReceipt(chain: ChainClient, request: VerifyReceiptRequest): Promise<VerifyReceiptResponse> {
  const txid = validate(txidSchema, request.txid, 'txid');
  const lines = request.checkLines ? validate(linesSchema, { lines: request.lines.map(orderLineOf) }, 'lines').lines : undefined;

  const found = await chain.getTransaction(txid);
  if (!found) throw new AppError('not_found', `The chain (${chain.network}) has no transaction ${txid}.`, { txid });
  const receipt = findReceipt(found.tx);
  if (!receipt) throw new AppError('not_found', `Transaction ${txid} carries no receipt.`, { txid });

  const { status } = found;
  const merkleProof: MerkleProof =
    status.state !== 'mined'
      ? undefined
      : !status.merklePath
        ? 'missing'
        : (await chain.verifyMerkleProof(txid, status.merklePath))
          ? 'valid'
          : 'invalid';
  const linesStatus: LinesStatus = !lines ? 'unknown' : hashOrderLines(lines) === receipt.linesHash ? 'match' : 'mismatch';

  return {
    txid,
    merchant: receipt.merchant,
    reference: receipt.reference,
    linesHash: receipt.linesHash,
    receiptVout: receipt.vout,
    paidOutputs: paidOutputs(found.tx, receipt.vout, chain.network),
    status: status.state,
    blockHeight: status.blockHeight === undefined ? undefined : BigInt(status.blockHeight),
    blockHash: status.blockHash,
    confirmations: BigInt(status.confirmations ?? 0),
    merkleProof,
    linesStatus,
    ...judge(status, merkleProof, linesStatus),
    // The lines checked are the ones the caller sent.
    lines: { status: linesStatus, items: lines ? request.lines : [] },
  };
}

/** The proto's line as the receipt format spells it; int64s become numbers for the schema to bound. */
function orderLineOf(line: VerifyReceiptRequest['lines'][number]): Record<keyof OrderLine, unknown> {
  return {
    item_id: line.itemId ?? null,
    name: line.name,
    quantity: Number(line.quantity),
    unit_price_minor: Number(line.unitPriceMinor),
    currency: line.currency,
  };
}

function judge(status: TxStatus, merkleProof: MerkleProof, lines: LinesStatus): { verified: boolean; why: string } {
  if (lines === 'mismatch') return { verified: false, why: "The order lines given do not hash to the receipt's lines hash." };
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
  const what = lines === 'match' ? 'and the order lines match its hash' : 'the order lines were not given, only their hash is on chain';
  return { verified: true, why: `Mined in block ${status.blockHeight} with a merkle path to the chain's block header; ${what}.` };
}
