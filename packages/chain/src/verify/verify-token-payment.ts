import { Utils, type Transaction } from '@bsv/sdk';
import { AppError } from '@ctk/shared';
import type { ChainClient, TxStatus } from '../client/types.js';
import { parseTokenOutput } from '../tokens/index.js';
import { checkInputScripts, type SpentCoin } from './check-input-scripts.js';
import { acceptedStatus, findPayment, type FoundPayment } from './find-payment.js';
import type { PaymentSource } from './verify-payment.js';

/** The most inputs a transfer handed over whole may have (a wallet's transfer has a few). */
const MAX_SUBMITTED_INPUTS = 100;

/** The token output a payment must have: at least `amount` units of `tokenId` to `address`, cosign-locked when a cosigner is named. */
export type ExpectedTokenPayment = { tokenId: string; address: string; amount: bigint; cosignerPublicKey?: string };

export type VerifyTokenPaymentInput = {
  payment: PaymentSource;
  expected: ExpectedTokenPayment;
  chain: ChainClient;
  /** Whether this output already paid for something else (the caller's record). */
  isOutputUsed(txid: string, vout: number): Promise<boolean>;
};

export type VerifiedTokenPayment = { txid: string; vout: number; amount: bigint; tx: Transaction; status: TxStatus };

/**
 * Decides whether a BSV-21 token transfer pays what is expected (docs/decisions/0036-stablecoin-and-tokens.md),
 * each refusal with a code that says which: no token output to the address (`payment_wrong_output`), another
 * token there (`stablecoin_wrong_token`), one not cosign-locked to the token's cosigner (`payment_wrong_output`:
 * it could never move again), too little (`payment_underpaid`), an output that paid before
 * (`txid_already_used`), a submitted transfer whose cosigned inputs lack the cosigner's signature
 * (`stablecoin_not_approved`, checked by the script interpreter before anything is broadcast), the chain's
 * refusal (`chain_rejected`), and a transfer the token's rules void (`stablecoin_transfer_invalid`: its inputs
 * do not hold what it moves). Recording the output as used is the caller's, under a unique constraint.
 */
export async function verifyTokenPayment(input: VerifyTokenPaymentInput): Promise<VerifiedTokenPayment> {
  const { expected, chain } = input;
  const found = await findPayment(chain, input.payment);
  const paid = tokenOutputTo(found, expected);
  if (await input.isOutputUsed(found.txid, paid.vout))
    throw new AppError('txid_already_used', `Output ${paid.vout} of ${found.txid} already paid for something else; an output pays once.`, {
      txid: found.txid,
      vout: paid.vout,
    });
  if (found.bytes) {
    // Each input of a handed-over transaction may be looked up on the chain: a bounded number of them.
    if (found.tx.inputs.length > MAX_SUBMITTED_INPUTS)
      throw new AppError(
        'validation_failed',
        `A token transfer handed over has at most ${MAX_SUBMITTED_INPUTS} inputs; this one has ${found.tx.inputs.length}.`,
        {
          field: 'transaction',
        },
      );
    await requireCosigner(chain, found.tx, expected);
  }
  const status = await acceptedStatus(chain, found);
  const indexed = (await chain.tokenOutputs(found.txid))?.find((output) => output.vout === paid.vout);
  if (!indexed || indexed.status === 'pending')
    throw new AppError('unavailable', `The token indexer has not validated ${found.txid} yet; settle it again in a moment.`, {
      txid: found.txid,
    });
  if (indexed.status === 'invalid')
    throw new AppError(
      'stablecoin_transfer_invalid',
      `Transfer ${found.txid} moves tokens its inputs do not hold, so it holds none${indexed.reason ? `: ${indexed.reason}` : ''}.`,
      { txid: found.txid, vout: paid.vout, reason: indexed.reason ?? '' },
    );
  return { txid: found.txid, vout: paid.vout, amount: paid.amount, tx: found.tx, status };
}

/** The output paying the expected token to the address (the largest, when several do). */
function tokenOutputTo(found: FoundPayment, expected: ExpectedTokenPayment): { vout: number; amount: bigint } {
  const ownerPkh = Utils.toHex(Utils.fromBase58Check(expected.address).data as number[]);
  const toAddress = found.tx.outputs.flatMap((output, vout) => {
    const token = parseTokenOutput(output.lockingScript);
    if (token?.ownerPkh !== ownerPkh) return [];
    return [{ vout, token, tokenId: token.tokenId ?? `${found.txid}_${vout}` }];
  });
  if (toAddress.length === 0)
    throw new AppError('payment_wrong_output', `Transaction ${found.txid} pays no token to ${expected.address}.`, {
      txid: found.txid,
      address: expected.address,
    });
  const ofToken = toAddress.filter((output) => output.tokenId === expected.tokenId);
  if (ofToken.length === 0)
    throw new AppError(
      'stablecoin_wrong_token',
      `Transaction ${found.txid} pays ${toAddress[0]!.tokenId} to the address, not ${expected.tokenId}.`,
      {
        txid: found.txid,
        token_id: toAddress[0]!.tokenId,
        expected: expected.tokenId,
      },
    );
  const locked = ofToken.filter((output) => !expected.cosignerPublicKey || output.token.cosignerPublicKey === expected.cosignerPublicKey);
  if (locked.length === 0)
    throw new AppError(
      'payment_wrong_output',
      `Transaction ${found.txid} pays the token to ${expected.address} without its cosigner's lock: those tokens could never move again.`,
      { txid: found.txid, vout: ofToken[0]!.vout },
    );
  const best = locked.reduce((a, b) => (b.token.amount > a.token.amount ? b : a));
  if (best.token.amount < expected.amount)
    throw new AppError(
      'payment_underpaid',
      `Output ${best.vout} of ${found.txid} pays ${best.token.amount} units of the token; ${expected.amount} are due.`,
      { txid: found.txid, vout: best.vout, token_amount: best.token.amount.toString(), expected: expected.amount.toString() },
    );
  return { vout: best.vout, amount: best.token.amount };
}

/**
 * Every input of a submitted transfer that spends an output cosign-locked to the token's cosigner must carry the
 * cosigner's signature: the interpreter runs those inputs against the outputs they spend (from the
 * transaction's own source transactions, else the chain) before anything is broadcast.
 */
async function requireCosigner(chain: ChainClient, tx: Transaction, expected: ExpectedTokenPayment): Promise<void> {
  if (!expected.cosignerPublicKey) return;
  const coins: SpentCoin[] = [];
  const cosigned: number[] = [];
  for (const [index, txInput] of tx.inputs.entries()) {
    const source = txInput.sourceTransaction ?? (await chain.getTransaction(txInput.sourceTXID!))?.tx;
    const output = source?.outputs[txInput.sourceOutputIndex];
    // An input the chain does not know: the broadcast refuses it (chain_rejected), as it would any transaction.
    if (!output) return;
    coins.push({ satoshis: output.satoshis ?? 0, lockingScript: output.lockingScript });
    if (parseTokenOutput(output.lockingScript)?.cosignerPublicKey === expected.cosignerPublicKey) cosigned.push(index);
  }
  const failure = checkInputScripts(tx, coins);
  if (failure && cosigned.includes(failure.index))
    throw new AppError(
      'stablecoin_not_approved',
      `Input ${failure.index} spends the token without its cosigner's signature (${failure.reason}): have the cosigner approve the transfer, then send it again.`,
      { input: failure.index },
    );
}
