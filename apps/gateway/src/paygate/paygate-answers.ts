import { z } from 'zod';
import { messageDesc } from '../contract/contract-registry.js';
import { messageSchema } from '../contract/message-schema.js';
import { isoTime, named, pageOf } from '../routes/answer-schema.js';

/**
 * What the payment gate answers (decision 0021), with Blue Bottle Cafe's paid weather API as the example:
 * ten forecasts for 50 satoshis, paid by a client that got a 402.
 */

const RESOURCE_ID = '6f1d2c3b-4a59-4e8f-9b7a-0c1d2e3f4a5b';
const SERVER_KEY = '038a466bf6418efe6adbc533a5c6d31a235ca5cf072ee56caa08a82e369c5e4d9b';
const PAY_TO = '1N9p79UrrUjEHLy4AdcG6394VzC4f7XpET';
const LOCKING_SCRIPT = '76a914e8054a8e7937dba2c4be6c6c4537924dde9bcebc88ac';
const NONCE = 'q7Lh0V3pX9cJ2mR8tY4wKA';
const methodAnswer = z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', '*']);
const grantAnswer = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('calls'), calls: z.number().int() }),
  z.object({ kind: z.literal('window'), seconds: z.number().int() }),
]);

export const gateResource = named(
  'PaygateResource',
  z.object({
    id: z.uuid(),
    method: methodAnswer,
    path: z.string().describe('An exact path, or a prefix ending in "/*"'),
    price_satoshis: z.number().int(),
    grant: grantAnswer,
    description: z.string(),
    created_at: isoTime,
  }),
  {
    id: RESOURCE_ID,
    method: 'GET',
    path: '/weather/*',
    price_satoshis: 50,
    grant: { kind: 'calls', calls: 10 },
    description: "Blue Bottle Cafe's street-level weather: ten forecasts for 50 satoshis",
    created_at: '2026-11-24T09:00:00.000Z',
  },
);

export const gateResourcePage = pageOf('PaygateResource', gateResource);

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
      payTo: PAY_TO,
      maxTimeoutSeconds: 300,
      extra: { nonce: NONCE, lockingScript: LOCKING_SCRIPT, serverKey: SERVER_KEY, grant: { kind: 'calls', calls: 10 } },
    },
  ],
};

export const gateCheck = named(
  'PaygateCheck',
  z.object({
    outcome: z
      .enum(['free', 'payment_required', 'paid'])
      .describe('free: no price on it, pass it on; payment_required: answer 402 with headers and body; paid: pass it on, adding headers'),
    status: z.union([z.literal(200), z.literal(402)]).describe('The status the resource server answers with'),
    headers: z.record(z.string(), z.string()).describe('Headers to add to the answer'),
    body: paymentRequiredDocument.optional(),
    refusal: z
      .object({ code: z.string(), message: z.string() })
      .optional()
      .describe('A payment or credential that was offered and refused (a 402 only)'),
    credential: messageSchema(messageDesc('ctk.p2p.v1.GateCredential'), 'answer')
      .optional()
      .describe('A credential issued for a payment this request carried'),
    payment: messageSchema(messageDesc('ctk.p2p.v1.GatePayment'), 'answer').optional().describe('The payment that paid this request'),
  }),
  {
    outcome: 'payment_required',
    status: 402,
    headers: {
      'x-bsv-sats': '50',
      'x-bsv-server': SERVER_KEY,
      'payment-required': Buffer.from(JSON.stringify(PAYMENT_REQUIRED_EXAMPLE)).toString('base64'),
    },
    body: PAYMENT_REQUIRED_EXAMPLE,
  },
);
