import { z } from 'zod';
import { exampleOf, isoTime, named, pageOf } from '../routes/answer-schema.js';

/**
 * What the payment gate answers (decision 0021), with Blue Bottle Cafe's paid weather API as the example:
 * ten forecasts for 50 satoshis, paid by a client that got a 402.
 */

const RESOURCE_ID = '6f1d2c3b-4a59-4e8f-9b7a-0c1d2e3f4a5b';
const PAYMENT_ID = 'b3e1f5a7-9c2d-4e6f-8a1b-3c5d7e9f1a2b';
const TXID = '02eb2dada5825e0a479b2817ac78540caae4c4f2f6ebe30ec6e198b925aa97f7';
const SERVER_KEY = '038a466bf6418efe6adbc533a5c6d31a235ca5cf072ee56caa08a82e369c5e4d9b';
const PAY_TO = '1N9p79UrrUjEHLy4AdcG6394VzC4f7XpET';
const LOCKING_SCRIPT = '76a914e8054a8e7937dba2c4be6c6c4537924dde9bcebc88ac';
const PAYER_KEY = '02d95267f9abca69063ac564d53f3babe2fc13c4fc9258d8365413d18161e4eb1c';
const NONCE = 'q7Lh0V3pX9cJ2mR8tY4wKA';
// Signed with the example key of PaygateKeys below (kid e37e82104fc9a5b9), so it checks as a middleware checks it.
const CREDENTIAL_TOKEN =
  'eyJhbGciOiJFZERTQSIsImtpZCI6ImUzN2U4MjEwNGZjOWE1YjkiLCJ0eXAiOiJjdGs0MDIifQ.' +
  'eyJzdWIiOiI0YTdjOWUxZi0yYjNkLTRlNWYtOGExYi0yYzNkNGU1ZjZhN2IiLCJqdGkiOiJiM2UxZjVhNy05YzJkLTRlNmYtOGExYi0zYzVkN2U5ZjFhMmIiLCJyZXMiOiI2ZjFkMmMzYi00YTU5LTRlOGYtOWI3YS0wYzFkMmUzZjRhNWIiLCJtdGgiOiJHRVQiLCJwdGgiOiIvd2VhdGhlci8qIiwiY2FsbHMiOjEwLCJpYXQiOjE3OTU1MTExMDAsImV4cCI6MTc5NTU5NzUwMH0.' +
  'tYTm9aP6yXMAaboF0mqzVygaWlCp55tK30tldQ19o97R4JSb7kIA2ndJ7C8TLCUZSvrkogl_Xl7B8DJYkL3nDQ';

/** The example payment transaction (BEEF, base64): 50 satoshis to the fresh child's P2PKH, and change. */
export const PAYMENT_BEEF_BASE64 =
  'AQC+7wH++20NAAEBAAI7qCvVZFO9cJ2nGUImjDdg4EAg50ok4ZNr1/kYnF7s7QIBAAAAAQAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA/////xl2qRQKudWK2sc8Z/cUKhOX8kXim8jp0Yis/////wHoAwAAAAAAABl2qRQKudWK2sc8Z/cUKhOX8kXim8jp0YisAAAAAAEAAQAAAAE7qCvVZFO9cJ2nGUImjDdg4EAg50ok4ZNr1/kYnF7s7QAAAABrSDBFAiEA+bW6jCF2LU1+4csjGsVxVa6Pu1zrXt6bqU/uyCY/zbMCIDTGueYsQx1x8ohUhO9NXHPuGb22+wkaf3eGKRnmpgomQSEC2VJn+avKaQY6xWTVPzur4vwTxPySWNg2VBPRgWHk6xz/////AjIAAAAAAAAAGXapFOgFSo55N9uixL5sbEU3kk3em868iKy1AwAAAAAAABl2qRQKudWK2sc8Z/cUKhOX8kXim8jp0YisAAAAAAA=';

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

export const gatePayment = named(
  'PaygatePayment',
  z.object({
    id: z.uuid().describe("The payment's id, also its credential's jti"),
    resource_id: z.uuid(),
    method: methodAnswer,
    path: z.string(),
    txid: z.string().regex(/^[0-9a-f]{64}$/),
    vout: z.number().int(),
    satoshis: z.number().int(),
    protocol: z.enum(['x402', 'brc121']),
    payer: z.string().nullable().describe("The payer's identity key (BRC-121 x-bsv-sender), when given"),
    calls: z.number().int().nullable().describe('Calls it paid for; null for a time window'),
    calls_used: z.number().int().describe('Calls counted by the gate (credentials checked by a middleware count locally)'),
    expires_at: isoTime.describe('Until when its credential is good'),
    created_at: isoTime,
    pay_to: z.string().nullable().describe('The address paid: a child of the organisation’s xpub'),
    derivation_index: z.number().int().nullable().describe('That child’s index (m/0/n)'),
    derivation_prefix: z
      .string()
      .nullable()
      .describe("BRC-121 paid to a BRC-42 child of the merchant's identity key: the BRC-29 remittance (the nonce), for its wallet"),
    derivation_suffix: z.string().nullable().describe('The remittance’s suffix (base64 of the time)'),
    price_satoshis: z.number().int().describe('The price asked; `satoshis` is what the output paid, kept whole'),
    overpaid: z.boolean().describe('True when the output paid more than the price (as an order is flagged overpaid)'),
  }),
  {
    id: PAYMENT_ID,
    resource_id: RESOURCE_ID,
    method: 'GET',
    path: '/weather/*',
    txid: TXID,
    vout: 0,
    satoshis: 50,
    protocol: 'x402',
    payer: null,
    calls: 10,
    calls_used: 1,
    expires_at: '2026-11-25T09:05:00.000Z',
    created_at: '2026-11-24T09:05:00.000Z',
    pay_to: PAY_TO,
    derivation_index: 7,
    derivation_prefix: null,
    derivation_suffix: null,
    price_satoshis: 50,
    overpaid: false,
  },
);

export const gatePaymentPage = pageOf('PaygatePayment', gatePayment);

export const gateCredential = named(
  'PaygateCredential',
  z.object({
    token: z.string().describe('A compact JWS (EdDSA, typ ctk402): send it as x-ctk-credential on later requests'),
    calls: z.number().int().nullable().describe('Calls it is good for; null for a time window'),
    expires_at: isoTime,
  }),
  { token: CREDENTIAL_TOKEN, calls: 10, expires_at: '2026-11-25T09:05:00.000Z' },
);

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
    credential: gateCredential.optional().describe('A credential issued for a payment this request carried'),
    payment: gatePayment.optional().describe('The payment that paid this request'),
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

export const gateVerified = named('PaygateVerifiedPayment', z.object({ payment: gatePayment, credential: gateCredential }), {
  payment: { ...exampleOf(gatePayment), calls_used: 0, protocol: 'brc121', payer: PAYER_KEY },
  credential: exampleOf(gateCredential),
});

export const gateKeys = named(
  'PaygateKeys',
  z.object({
    issuer: z.string().describe('This instance (its public URL)'),
    keys: z
      .array(
        z.object({
          kid: z.string(),
          alg: z.literal('EdDSA'),
          crv: z.literal('Ed25519'),
          x: z.string().describe('The raw 32-byte public key, base64url'),
        }),
      )
      .describe('The keys credentials are signed with: a credential names its key by kid'),
    revoked: z.object({
      resources: z.array(z.string()).describe('Removed resources: every credential for them is void'),
      credentials: z.array(z.string()).describe('Single credentials by jti'),
    }),
    max_age_seconds: z.number().int().describe('Read this document again after this many seconds'),
  }),
  {
    issuer: 'https://pay.example.com',
    keys: [{ kid: 'e37e82104fc9a5b9', alg: 'EdDSA', crv: 'Ed25519', x: 'fuk2j1EaX59VYOh0cBpq5h88CjiZo924N2KmfkG-lWI' }],
    revoked: { resources: ['0d4e6f8a-1b3c-4d5e-9f7a-2b4c6d8e0f1a'], credentials: ['e7f9a1b3-5c7d-4e9f-8b1d-3f5a7c9e1b3d'] },
    max_age_seconds: 30,
  },
);
