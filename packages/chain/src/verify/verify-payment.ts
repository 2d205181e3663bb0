import type { Transaction } from '@bsv/sdk';
import { AppError } from '@ctk/shared';
import type { ChainClient, TxStatus } from '../client/types.js';
import type { TxFormat } from '../tx-format.js';
import { acceptedStatus, findPayment } from './find-payment.js';
import { matchOutputs, type ExpectedOutput, type PaidOutput } from './match-outputs.js';

export type { ExpectedOutput, PaidOutput } from './match-outputs.js';

/** The payment to check: a txid the chain already has, or a transaction submitted as raw, EF or BEEF (bytes or hex). */
export type PaymentSource = { txid: string } | { transaction: Uint8Array | string };

export type VerifyPaymentInput = {
  payment: PaymentSource;
  /** Every output the payment must have, e.g. the merchant's script and an OP_RETURN carrying the reference. */
  expected: readonly ExpectedOutput[];
  chain: ChainClient;
  /**
   * Whether this txid already paid for something (the caller's spent store); `tx` lets a store that keys
   * by output ask about the outputs this payment would take.
   */
  isTxidUsed(txid: string, tx: Transaction): Promise<boolean>;
};

export type VerifiedPayment = {
  txid: string;
  tx: Transaction;
  /** How a submitted transaction was encoded; absent for one looked up by txid. */
  format?: TxFormat;
  status: TxStatus;
  paid: PaidOutput[];
  /** Satoshis of the matched outputs together. */
  satoshis: number;
};

/**
 * Decides whether a transaction pays what is expected and the chain accepts it. In order: the txid must
 * not have paid before (`txid_already_used`), every expected output must be there (`payment_wrong_output`,
 * `payment_underpaid`), then a submitted transaction is broadcast (a refusal is ARC's `chain_rejected`, e.g.
 * a double spend or a bad signature) and one given by txid must be known to the chain and not refused.
 * Nothing is broadcast unless the outputs are right. Recording the txid as used is the caller's, under a
 * unique constraint, so that two concurrent claims cannot both win.
 */
export async function verifyPayment(input: VerifyPaymentInput): Promise<VerifiedPayment> {
  const found = await findPayment(input.chain, input.payment);
  if (await input.isTxidUsed(found.txid, found.tx)) {
    throw new AppError('txid_already_used', `Transaction ${found.txid} already paid for something else; a transaction pays once.`, {
      txid: found.txid,
    });
  }
  const paid = matchOutputs(found.tx, input.expected);
  const status = await acceptedStatus(input.chain, found);
  return {
    txid: found.txid,
    tx: found.tx,
    format: found.format,
    status,
    paid,
    satoshis: paid.reduce((sum, output) => sum + output.satoshis, 0),
  };
}
