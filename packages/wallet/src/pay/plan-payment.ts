import { P2PKH, type PrivateKey } from '@bsv/sdk';
import type { ChainClient, ChainNetwork } from '@ctk/chain';
import { AppError } from '@ctk/shared';
import { addressPrefix } from '../chain-settings.js';
import { parseBip21 } from './bip21.js';
import { planPaymentRequest } from './payment-request.js';
import { isPaymail, planPaymail } from './paymail.js';
import type { PaymentPlan } from './plan.js';

export type PlanContext = { chain: ChainClient; network: ChainNetwork; key: PrivateKey; insecureHttp: boolean; amount?: number };

/** A `bitcoin:` URI, a `pay:` URI or a paymail, with `--amount` where the target carries none. */
export async function planPayment(target: string, context: PlanContext): Promise<PaymentPlan> {
  if (/^bitcoin:/i.test(target)) return planBip21(target, context);
  if (/^pay:/i.test(target)) {
    if (context.amount !== undefined) throw new AppError('bad_request', 'A payment request sets its own amounts: drop --amount.');
    // A refund of the payment comes back to the wallet's address (its identity key's, where change goes).
    return planPaymentRequest(target, context.chain, context.insecureHttp, context.key.toAddress(addressPrefix(context.network)));
  }
  if (isPaymail(target)) {
    if (context.amount === undefined) throw new AppError('bad_request', 'Paying a paymail needs --amount <satoshis>.');
    return planPaymail(target, context.amount, context);
  }
  throw new AppError('bad_request', `Cannot pay "${target}": give a bitcoin: URI, a pay: URI or a paymail (alias@domain).`);
}

function planBip21(uri: string, context: PlanContext): PaymentPlan {
  const request = parseBip21(uri, context.network);
  if (request.satoshis !== undefined && context.amount !== undefined && request.satoshis !== context.amount) {
    throw new AppError('bad_request', `The URI asks for ${request.satoshis} satoshis and --amount says ${context.amount}.`);
  }
  const satoshis = request.satoshis ?? context.amount;
  if (satoshis === undefined) throw new AppError('bad_request', 'The URI has no amount: add --amount <satoshis>.');
  return {
    to: request.address + (request.label ? ` (${request.label})` : ''),
    outputs: [{ lockingScript: new P2PKH().lock(request.address), satoshis }],
    async deliver(tx) {
      await context.chain.broadcast(tx);
      return { via: 'broadcast', ...(request.message ? { note: request.message } : {}) };
    },
  };
}
