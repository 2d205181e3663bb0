import { z } from 'zod';

/**
 * Only the shapes of the payment gate's requests (decision 0021): p2p owns the rules (what a priced path may
 * hold, the price and grant bounds, one price per method and path, the payments, the nonces) and names the
 * field it refuses. The BEEF-carrying routes take a larger body than the gateway's.
 */

/**
 * /check and /verify carry a transaction as base64 BEEF, a few MB at most; the gRPC message to p2p (4 MiB at
 * most) then still fits, with the other fields.
 */
export const PAYGATE_BODY_LIMIT = 4_000_000;

/** The method of a priced resource: one, or `*` for any. */
export const resourceMethod = z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', '*'], 'must be GET, POST, PUT, PATCH, DELETE or *');

/** The contract's int32, a type's bound: a number beyond it would fail the protobuf encoding rather than be refused by p2p. */
const int32 = z.number().int().min(-2_147_483_648).max(2_147_483_647);

/** A URL path pattern: "/weather/today" exactly, or "/weather/*" for that prefix and below; no query or fragment. */
const resourcePath = z
  .string()
  .describe(
    '"/weather/today" matches that path exactly; "/weather/*" matches "/weather" and everything below it. ' +
      'At most 512 characters, from "/", without query, fragment, spaces, control characters or dot segments',
  );

/** What one payment buys: a number of calls, or a time window of access. */
const grant = z
  .discriminatedUnion(
    'kind',
    [
      z
        .object({
          kind: z.literal('calls'),
          calls: int32.describe('Calls one payment pays for (1 is a single call), at most 1,000,000'),
        })
        .strict(),
      z
        .object({
          kind: z.literal('window'),
          seconds: int32.describe('Seconds of access from the payment, at most a year (31,536,000)'),
        })
        .strict(),
    ],
    { error: 'grant.kind must be calls or window' },
  )
  .describe('What one payment buys');

export const newResource = z
  .object({
    method: resourceMethod,
    path: resourcePath,
    price_satoshis: z.number().int().describe('The price of one payment, in satoshis: at least 1, at most all bitcoin'),
    grant,
    description: z.string().default('').describe('Shown to the payer in the 402 answer; at most 500 characters'),
  })
  .strict();

export const newResourceExample: z.input<typeof newResource> = {
  method: 'GET',
  path: '/weather/*',
  price_satoshis: 50,
  grant: { kind: 'calls', calls: 10 },
  description: "Blue Bottle Cafe's street-level weather: ten forecasts for 50 satoshis",
};

export const resourceParams = z.object({ id: z.uuid('must be the id of a priced resource (a UUID)') });

/** The payment headers a resource server passes on, lower-case: any other is refused, so nothing else leaks to the gate. */
const MAX_SMALL_HEADER = 8_192;
const paymentHeaders = z
  .object({
    'x-bsv-beef': z.string().max(PAYGATE_BODY_LIMIT).optional().describe('BRC-121: the payment transaction, base64 BEEF'),
    'x-bsv-sender': z.string().max(MAX_SMALL_HEADER).optional().describe("BRC-121: the payer's identity key"),
    'x-bsv-nonce': z.string().max(MAX_SMALL_HEADER).optional().describe('BRC-121: the payment nonce'),
    'x-bsv-time': z.string().max(MAX_SMALL_HEADER).optional().describe('BRC-121: when it was paid, Unix milliseconds'),
    'x-bsv-vout': z.string().max(MAX_SMALL_HEADER).optional().describe('BRC-121: the output paying the server key'),
    'payment-signature': z.string().max(PAYGATE_BODY_LIMIT).optional().describe('x402: base64 JSON of the payment payload'),
    'x-ctk-credential': z.string().max(MAX_SMALL_HEADER).optional().describe('A credential a payment bought (a compact JWS)'),
  })
  .strict();

const URL_RULE = 'url must be the URL the request was sent to: absolute http(s), or a path from "/"';

export const gateCheck = z
  .object({
    method: z
      .string()
      .regex(/^[A-Z]{1,20}$/, 'method must be the request method in upper case (GET, POST, ...)')
      .describe('The method of the request the resource server received'),
    url: z
      .string()
      .min(1, URL_RULE)
      .max(4096, 'url must be at most 4096 characters')
      .refine((url) => isRequestUrl(url), URL_RULE)
      .describe('The URL the request was sent to, absolute or from "/"; only its path is matched'),
    headers: paymentHeaders
      .default({})
      .describe('The payment headers the request carried, lower-case names; leave out those it did not carry'),
    payee_key: compressedKey('payee_key')
      .optional()
      .describe(
        "BRC-121 as @bsv/402-pay pays: the BRC-42 child of the merchant's identity key for this payment's sender, nonce and time, " +
          'derived by the merchant’s middleware (never taken from a client header); the payment must pay its P2PKH',
      ),
  })
  .strict();

const BASE64_RULE = 'transaction must be the BEEF in base64 (standard alphabet, padded)';

export const gatePayment = z
  .object({
    transaction: z
      .string()
      .min(1, BASE64_RULE)
      .pipe(z.base64(BASE64_RULE))
      .transform((text) => Buffer.from(text, 'base64'))
      .describe('The payment transaction as BEEF (BRC-62) or Atomic BEEF (BRC-95), base64'),
    vout: z.number().int().min(0).max(100_000).describe('The output that pays the payment request'),
    nonce: z
      .string()
      .max(128)
      .regex(/^[A-Za-z0-9_-]+$/, 'nonce must be the nonce of the 402 answer (letters, digits, "-" and "_")')
      .optional()
      .describe("x402: the payment request's nonce (accepts[].extra.nonce)"),
    sender: compressedKey('sender').optional().describe("BRC-121: the payer's identity key (x-bsv-sender)"),
    time: z
      .string()
      .regex(/^\d{1,16}$/, 'time must be Unix milliseconds, digits only')
      .optional()
      .describe('BRC-121: when it was paid, Unix milliseconds (x-bsv-time), within 30 s of now'),
  })
  .strict()
  .superRefine((payment, context) => {
    // x402 names its payment request by nonce; BRC-121 by the script it pays, with the sender and a fresh time.
    for (const [given, missing] of [
      ['sender', 'time'],
      ['time', 'sender'],
    ] as const)
      if (payment[given] !== undefined && payment[missing] === undefined)
        context.addIssue({ code: 'custom', path: [missing], message: `${missing} comes with ${given} (BRC-121)` });
    if (payment.nonce === undefined && payment.sender === undefined && payment.time === undefined)
      context.addIssue({ code: 'custom', path: ['nonce'], message: 'give the nonce (x402), or sender and time (BRC-121)' });
  });

/** A compressed public key in hex, as p2p compares it: lower case. */
function compressedKey(field: string) {
  return z
    .string()
    .regex(/^0[23][0-9a-fA-F]{64}$/, `${field} must be a compressed public key in hex (66 characters, 02 or 03 first)`)
    .transform((key) => key.toLowerCase());
}

/** A request target: an absolute http(s) URL, or a path from "/" (not "//", which names a host). */
function isRequestUrl(url: string): boolean {
  if (/[\s\p{Cc}]/u.test(url)) return false;
  if (url.startsWith('/')) return !url.startsWith('//');
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:';
  } catch {
    return false;
  }
}
