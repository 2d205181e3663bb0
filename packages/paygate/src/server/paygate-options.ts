import { validate } from '@ctk/shared';
import { z } from 'zod';

const httpUrl = z.url({ protocol: /^https?$/, error: 'an http(s) URL' });

const optionsSchema = z.object({
  /** The gateway's base URL (`http://localhost:8080`): `/api/v1/402/check` and `/.well-known/ctk-paygate.json` live under it. */
  gateUrl: httpUrl,
  /** The payment-gate key (`ctk_pg_...`), sent as `Authorization: Bearer` to `/check` only. */
  key: z.string().min(1),
  /**
   * The payment-gate account id (`account_id` in the key's answer). One signing key serves every account of
   * an instance, so a credential must name this account. Unset, it is learned from the first credential the
   * gate issues through this process; until then credentials are checked by the gate.
   */
  account: z.string().min(1).optional(),
  /**
   * The merchant's identity key (WIF, or 64 hex digits), for BRC-121 payments as `@bsv/402-pay` makes them
   * (decision 0021): the 402 names its public key as `x-bsv-server`, and for each such payment the middleware
   * derives the BRC-42 key paid (BRC-29: the sender, `x-bsv-nonce` and `x-bsv-time`) and sends it to the gate
   * as `payee_key`. The gate holds no key, so without this only payments to the gate's fresh key are taken.
   */
  identityKey: z
    .string()
    .regex(/^(?:[0-9a-fA-F]{64}|[1-9A-HJ-NP-Za-km-z]{51,52})$/, 'a private key: WIF, or 64 hex digits')
    .optional(),
  /** The origin clients reach this server at (`https://api.example.com`); unset, the request's Host header. */
  publicUrl: httpUrl.optional(),
  /** How long `/check` may take (it verifies and broadcasts a payment; the gateway gives p2p 30 s): 35 s. */
  checkTimeoutMs: z.number().int().positive().default(35_000),
  /** How long fetching the published document may take: 5 s. */
  documentTimeoutMs: z.number().int().positive().default(5_000),
  /** The largest `x-bsv-beef` or `payment-signature` forwarded (a BEEF with its ancestors): 1 MiB. */
  maxTransactionHeaderBytes: z
    .number()
    .int()
    .positive()
    .default(1024 * 1024),
  /** The largest other payment header forwarded (`x-ctk-credential`, `x-bsv-sender`, ...): 4 KiB. */
  maxHeaderBytes: z.number().int().positive().default(4096),
  /** Verified credentials kept (a repeated one is not verified again): 10,000. */
  cacheSize: z.number().int().positive().default(10_000),
  /** Calls grants whose uses are counted at once: 100,000 (past it the least recently used is forgotten). */
  countedCredentials: z.number().int().positive().default(100_000),
});

export type PaygateOptions = z.input<typeof optionsSchema> & {
  /** Told of failures the client does not see in full: the gate unreachable, a refresh failing. Default: console.warn. */
  onError?: (error: Error) => void;
};
export type PaygateSettings = z.output<typeof optionsSchema> & { onError: (error: Error) => void };

export function paygateSettings(options: PaygateOptions): PaygateSettings {
  const { onError, ...rest } = options;
  return {
    ...validate(optionsSchema, rest, 'paygate options'),
    onError: onError ?? ((error) => console.warn(`@ctk/paygate: ${error.message}`)),
  };
}
