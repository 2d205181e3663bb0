import type { VerifyReceiptResponse } from '@ctk/proto/ctk/p2p/v1/p2p';
import type { z } from 'zod';
import type { OrderLinesBody } from './receipt-input.js';
import type { receiptVerification } from './receipt-answers.js';

type ReceiptVerification = z.infer<typeof receiptVerification>;

/** p2p's verification as the API answers it; the lines it checked are the ones the caller sent. */
export function receiptView(answer: VerifyReceiptResponse, lines?: OrderLinesBody['lines']): ReceiptVerification {
  return {
    txid: answer.txid,
    merchant: answer.merchant,
    reference: answer.reference,
    lines_hash: answer.linesHash,
    receipt_vout: answer.receiptVout,
    paid_outputs: answer.paidOutputs.map((output) => ({
      vout: output.vout,
      satoshis: Number(output.satoshis),
      address: output.address ?? null,
      script: output.script,
    })),
    status: answer.status as ReceiptVerification['status'],
    block_height: answer.blockHeight === undefined ? null : Number(answer.blockHeight),
    block_hash: answer.blockHash ?? null,
    confirmations: Number(answer.confirmations),
    merkle_proof: (answer.merkleProof ?? null) as ReceiptVerification['merkle_proof'],
    lines: { status: answer.linesStatus as ReceiptVerification['lines']['status'], items: lines ?? null },
    verified: answer.verified,
    why: answer.why,
  };
}
