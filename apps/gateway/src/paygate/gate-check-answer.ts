import type { CheckGateRequestResponse } from '@ctk/proto/ctk/p2p/v1/p2p';
import { z } from 'zod';
import { messageDesc } from '../contract/contract-registry.js';
import { toJson } from '../contract/json-mapping.js';
import { messageSchema } from '../contract/message-schema.js';
import { named } from '../routes/answer-schema.js';

/**
 * The answer to /check: p2p's CheckGateRequestResponse as the contract gives it (what a check did not
 * produce is left out), with x402's PaymentRequired document (camelCase, x402's own names) parsed from
 * p2p's JSON text. Only that document is written here.
 */

const CHECKED = messageDesc('ctk.p2p.v1.CheckGateRequestResponse');

const paymentRequiredDocument = z
  .looseObject({
    x402Version: z.literal(2),
    error: z.string(),
    resource: z.looseObject({ url: z.string(), description: z.string(), mimeType: z.string() }),
    accepts: z.array(
      z.looseObject({
        scheme: z.string(),
        network: z.string().describe('bsv:mainnet, bsv:testnet or bsv:local'),
        amount: z.string().describe('Satoshis, as digits'),
        asset: z.string(),
        payTo: z.string().describe('The P2PKH address of a fresh child of the organisation’s xpub'),
        maxTimeoutSeconds: z.number().int(),
        extra: z.looseObject({
          nonce: z.string(),
          lockingScript: z.string(),
          serverKey: z.string().describe('The fresh child’s public key: BRC-121’s x-bsv-server'),
        }),
      }),
    ),
  })
  .describe('The x402 (version 2) PaymentRequired document: answer it as the 402 body');

/** Blue Bottle Cafe's paid weather API: ten forecasts for 50 satoshis, asked of a client without a payment. */
const PAYMENT_REQUIRED_EXAMPLE: z.output<typeof paymentRequiredDocument> = {
  x402Version: 2,
  error: 'Payment required',
  resource: {
    url: 'https://api.bluebottle.example/weather/today?city=oakland',
    description: "Blue Bottle Cafe's street-level weather: ten forecasts for 50 satoshis",
    mimeType: '',
  },
  accepts: [
    {
      scheme: 'exact',
      network: 'bsv:mainnet',
      amount: '50',
      asset: 'BSV',
      payTo: '1N9p79UrrUjEHLy4AdcG6394VzC4f7XpET',
      maxTimeoutSeconds: 300,
      extra: {
        nonce: 'q7Lh0V3pX9cJ2mR8tY4wKA',
        lockingScript: '76a914e8054a8e7937dba2c4be6c6c4537924dde9bcebc88ac',
        serverKey: '038a466bf6418efe6adbc533a5c6d31a235ca5cf072ee56caa08a82e369c5e4d9b',
        grant: { kind: 'calls', calls: 10 },
      },
    },
  ],
};

export const gateCheck = named(
  'PaygateCheck',
  (messageSchema(CHECKED, 'answer') as z.ZodObject).extend({
    status: z.union([z.literal(200), z.literal(402)]).describe('The status the resource server answers with'),
    body: paymentRequiredDocument.optional(),
  }),
  {
    outcome: 'payment_required',
    status: 402,
    headers: {
      'x-bsv-sats': '50',
      'x-bsv-server': PAYMENT_REQUIRED_EXAMPLE.accepts[0]!.extra.serverKey,
      'payment-required': Buffer.from(JSON.stringify(PAYMENT_REQUIRED_EXAMPLE)).toString('base64'),
    },
    body: PAYMENT_REQUIRED_EXAMPLE,
  },
);

/** What the resource server does, with the x402 document parsed for a 402. */
export function gateCheckView(check: CheckGateRequestResponse) {
  // p2p writes the document; one that is not JSON is its fault, answered 500 like any.
  return { ...toJson(CHECKED, check as never), ...(check.bodyJson ? { body: JSON.parse(check.bodyJson) as unknown } : {}) };
}
