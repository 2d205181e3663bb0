import { AppError } from '@ctk/shared';
import { parseSatoshis } from '../amounts.js';
import { report } from '../io.js';
import { buildTransaction } from '../pay/build-transaction.js';
import { feeRate } from '../pay/fee-rate.js';
import { planPayment } from '../pay/plan-payment.js';
import { receiptOutput } from '../pay/receipt-output.js';
import type { CommandContext } from './context.js';

/** Pays a bitcoin: URI, a pay: URI or a paymail from the wallet's coins, with a receipt when asked for. */
export async function pay({ io, options, chain, wallet }: CommandContext): Promise<void> {
  const [target] = options.args;
  if (!target || options.args.length > 1)
    throw new AppError('bad_request', 'Give one target: ctk-wallet pay <bitcoin:...|pay:...|alias@domain> [--amount sats].');
  const opened = wallet();
  const amount = options.amount === undefined ? undefined : parseSatoshis(options.amount);
  const plan = await planPayment(target, {
    chain: chain.client,
    network: chain.network,
    key: opened.key,
    insecureHttp: options.insecureHttp,
    amount,
  });
  const { output: receipt, receipt: receiptFields } = receiptOutput(options, plan);
  const outputs = receipt ? [...plan.outputs, receipt] : plan.outputs;
  const { tx, fee } = await buildTransaction({
    chain: chain.client,
    wallet: opened,
    outputs,
    satsPerKb: await feeRate(chain.arcUrl),
  });
  const delivered = await plan.deliver(tx);
  const txid = tx.id('hex');
  const satoshis = plan.outputs.reduce((sum, output) => sum + output.satoshis, 0);
  opened.recordPayment({
    txid,
    to: plan.to,
    satoshis,
    fee,
    ...(receiptFields ? { reference: receiptFields.reference } : {}),
    at: new Date().toISOString(),
  });
  report(
    io,
    options.json,
    {
      txid,
      to: plan.to,
      satoshis,
      fee,
      via: delivered.via,
      ...(delivered.note ? { note: delivered.note } : {}),
      receipt: receiptFields ?? null,
    },
    [
      `Paid ${satoshis} satoshis to ${plan.to} (fee ${fee}) via ${delivered.via}.`,
      `txid: ${txid}`,
      ...(receiptFields
        ? [`receipt: ${receiptFields.merchant} ${receiptFields.reference} (lines ${receiptFields.linesHash.slice(0, 16)}...)`]
        : []),
      ...(delivered.note ? [`note: ${delivered.note}`] : []),
    ],
  );
}
