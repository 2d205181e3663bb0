import { addressOfScript } from '@ctk/chain';
import type { VerifyGatePaymentRequest, VerifyGatePaymentResponse } from '@ctk/proto/ctk/p2p/v1/p2p';
import { validate } from '@ctk/shared';
import { z } from 'zod';
import { acceptGatePayment } from './accept-gate-payment.js';
import { accountOf } from './gate-account.js';
import type { GateDeps } from './gate-deps.js';
import { gatePaymentMessage } from './gate-messages.js';
import { compressedKeyOrNone } from './gate-request-fields.js';

const VOUT_RULE = 'vout must be the index of the output that pays, from 0 to 100,000';

const paymentSchema = z
  .object({
    transaction: z.instanceof(Uint8Array).refine((bytes) => bytes.length > 0, 'transaction must be the BEEF in base64'),
    vout: z.number().int().min(0, VOUT_RULE).max(100_000, VOUT_RULE),
    nonce: z
      .string()
      .max(128, 'nonce must be at most 128 characters')
      .regex(/^[A-Za-z0-9_-]*$/, 'nonce must be the nonce of the 402 answer (letters, digits, "-" and "_")'),
    sender: compressedKeyOrNone('sender'),
    time: z.string().regex(/^\d{0,16}$/, 'time must be Unix milliseconds, digits only'),
  })
  .superRefine((payment, context) => {
    // x402 names its payment request by nonce; BRC-121 by the script it pays, with the sender and a fresh time.
    for (const [given, missing] of [
      ['sender', 'time'],
      ['time', 'sender'],
    ] as const)
      if (payment[given] && !payment[missing])
        context.addIssue({ code: 'custom', path: [missing], message: `${missing} comes with ${given} (BRC-121)` });
    if (!payment.nonce && !payment.sender && !payment.time)
      context.addIssue({ code: 'custom', path: ['nonce'], message: 'give the nonce (x402), or sender and time (BRC-121)' });
  });

/** A payment a resource server received outside /check (x402 by nonce, BRC-121 by sender and time): verified and recorded, with its credential. */
export async function verifyGatePayment(deps: GateDeps, request: VerifyGatePaymentRequest): Promise<VerifyGatePaymentResponse> {
  const { account, ...fields } = request;
  const offered = validate(paymentSchema, fields, 'payment');
  const { payment, credential } = await acceptGatePayment(deps, accountOf(account), {
    protocol: offered.nonce ? 'x402' : 'brc121',
    transaction: offered.transaction,
    vout: offered.vout,
    nonce: offered.nonce || undefined,
    sender: offered.sender || undefined,
    time: offered.time || undefined,
  });
  return { payment: gatePaymentMessage(payment, addressOfScript(payment.script, deps.chain.network)), credential };
}
