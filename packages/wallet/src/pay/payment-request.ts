import { LockingScript, type Transaction } from '@bsv/sdk';
import type { ChainClient } from '@ctk/chain';
import { AppError } from '@ctk/shared';
import { z } from 'zod';
import { checkUrl, expectJson, requestJson } from '../http.js';
import type { PaymentPlan } from './plan.js';

/** A BIP270 payment request, as a `pay:?r=<url>` link (BIP272/BIP275 style) points to it. */
const paymentRequestSchema = z.object({
  network: z.string().optional(),
  outputs: z
    .array(
      z.object({
        amount: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
        script: z.string().regex(/^(?:[0-9a-fA-F]{2})+$/),
        description: z.string().optional(),
      }),
    )
    .min(1)
    .max(100),
  creationTimestamp: z.number().optional(),
  expirationTimestamp: z.number().optional(),
  memo: z.string().optional(),
  paymentUrl: z.string().optional(),
  merchantData: z.string().optional(),
});

/** `pay:?r=<url>`: the request's URL (percent-encoded in the link). */
export function paymentRequestUrl(uri: string): string {
  const match = /^pay:\??(.*)$/i.exec(uri);
  const r = match ? new URLSearchParams(match[1]).get('r') : null;
  if (!r) throw new AppError('bad_request', `A pay: URI needs the payment request's URL in "r": pay:?r=https://... (got ${uri})`);
  return r;
}

/**
 * Fetches the request, checks it has not expired, and plans its outputs as given (a receipt output
 * the merchant put in is paid as is). Delivery posts the BIP270 Payment to `paymentUrl` with `refundTo`,
 * the wallet's own address, where the merchant sends a refund (decision 0033), and broadcasts only once
 * the merchant acknowledged it, so a refused payment is never on chain.
 */
export async function planPaymentRequest(uri: string, chain: ChainClient, insecureHttp: boolean, refundTo?: string): Promise<PaymentPlan> {
  const url = checkUrl(paymentRequestUrl(uri), insecureHttp, 'payment request');
  const answer = await requestJson(url, 'payment request', { accept: 'application/bitcoinsv-paymentrequest, application/json' });
  const parsed = paymentRequestSchema.safeParse(
    expectJson(answer, `payment request at ${url.host}`, answer.status === 404 ? 'not_found' : 'failed_precondition'),
  );
  if (!parsed.success)
    throw new AppError(
      'failed_precondition',
      `The payment request at ${url.host} is not a BIP270 payment request (${parsed.error.issues[0]?.path.join('.')}: ${parsed.error.issues[0]?.message}).`,
    );
  const request = parsed.data;
  if (request.expirationTimestamp !== undefined && request.expirationTimestamp * 1000 < Date.now())
    throw new AppError(
      'failed_precondition',
      `The payment request expired at ${new Date(request.expirationTimestamp * 1000).toISOString()}.`,
    );
  const paymentUrl = request.paymentUrl ? checkUrl(new URL(request.paymentUrl, url).toString(), insecureHttp, 'payment') : undefined;
  return {
    to: url.toString(),
    outputs: request.outputs.map((output) => ({ lockingScript: LockingScript.fromHex(output.script), satoshis: output.amount })),
    async deliver(tx: Transaction) {
      let note: string | undefined;
      if (paymentUrl) {
        const ack = expectJson(
          await requestJson(paymentUrl, 'payment URL', {
            method: 'POST',
            accept: 'application/bitcoinsv-paymentack, application/json',
            body: { merchantData: request.merchantData, transaction: tx.toHex(), memo: request.memo, ...(refundTo ? { refundTo } : {}) },
          }),
          `merchant at ${paymentUrl.host}`,
        );
        if (typeof ack.error === 'number' && ack.error !== 0)
          throw new AppError(
            'failed_precondition',
            `The merchant refused the payment (${ack.error}${typeof ack.memo === 'string' ? `: ${ack.memo}` : ''}).`,
          );
        note = typeof ack.memo === 'string' ? ack.memo : undefined;
      }
      await chain.broadcast(tx);
      return { via: paymentUrl ? 'payment request (acknowledged, broadcast)' : 'broadcast', ...(note ? { note } : {}) };
    },
  };
}
