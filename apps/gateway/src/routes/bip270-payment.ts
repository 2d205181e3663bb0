import { exampleOf, messageDesc } from '../contract/contract-registry.js';
import { fromJson, toJson } from '../contract/json-mapping.js';
import { messageSchema } from '../contract/message-schema.js';
import { rpcParams } from '../contract/request-params.js';
import type { CallOptions } from '@ctk/shared';
import { route, type RouteDefinition } from './route-definition.js';
import { callOptions } from './service-call.js';

const PAYMENT = messageDesc('ctk.pos.v1.Bip270Payment');
const PAYMENT_ACK = messageDesc('ctk.pos.v1.Bip270PaymentAck');

/** A BIP270 Payment as the services take it, beside the id of what it pays. */
export type Bip270Payment = { transaction: string; merchantData: string; memo: string; refundTo: string };

/**
 * A wallet's BIP270 Payment of what a service asks to be paid (a pos order or refund, a referral checkout's
 * covenant): BIP270's own media types, or JSON; answers the PaymentACK.
 */
export function bip270Payment<N extends 'pos' | 'contracts'>(
  rpc: readonly [N, string],
  param: string,
  pay: (id: string, payment: Bip270Payment, call: CallOptions) => Promise<{ memo: string; error: number }>,
): RouteDefinition {
  return route({
    params: rpcParams(rpc as never, [param], 'path'),
    body: messageSchema(PAYMENT, 'request'),
    bodyExample: exampleOf(PAYMENT) as never,
    jsonAlso: { body: 'application/bitcoinsv-payment', answer: 'application/bitcoinsv-paymentack' },
    answer: messageSchema(PAYMENT_ACK, 'answer'),
    handle: async ({ params, body, request }) => {
      const payment = fromJson(PAYMENT, body as Record<string, unknown>) as Bip270Payment;
      // Verifying and broadcasting the transaction may take a few seconds.
      const ack = await pay(params[param] as string, payment, { ...callOptions(request), timeoutMs: 30_000 });
      return toJson(PAYMENT_ACK, { payment, memo: ack.memo, error: ack.error });
    },
  });
}
