import { isIP } from 'node:net';
import { configFields, telemetryConfigFields, serviceAddressFields, unsetIfEmpty } from '@ctk/shared';
import { z } from 'zod';

export const configSchema = z
  .object({
    PORT: configFields.port(8080),
    HOST: z.string().default('127.0.0.1'),
    LOG_LEVEL: configFields.logLevel,
    DATABASE_URL: configFields.databaseUrl,
    CTK_DATA_DIR: configFields.dataDir,
    /** Prometheus's metrics at GET /metrics on METRICS_PORT, never on PORT (0: any free port; none when unset), and tracing's OTEL_* settings. */
    ...telemetryConfigFields,
    /**
     * The public base URL of this instance: the domain sign-in messages are bound to, where paymail
     * capabilities point. By default http://localhost:<PORT>, so a second instance on another port points
     * at itself.
     */
    CTK_PUBLIC_URL: unsetIfEmpty(z.url().optional()),
    /**
     * The built back office (apps/back-office/dist), served at `/`, its pages and `/app/`: the embedded
     * default sets it (scripts/start-all.mjs). Unset, `/` is the API's documentation; in production the back
     * office is its own static image.
     */
    CTK_BACK_OFFICE_DIR: unsetIfEmpty(z.string().optional()),
    /** Where each service answers: BOOKS_GRPC_URL, POS_GRPC_URL, ... (@ctk/shared's service registry). */
    ...serviceAddressFields(),
    CTK_BODY_LIMIT_BYTES: z.coerce
      .number()
      .int()
      .min(1024)
      .default(256 * 1024),
    /** A request must arrive whole (headers and body) within this many seconds, else 408 and the connection is closed. */
    CTK_REQUEST_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(600).default(15),
    /**
     * Proxies whose X-Forwarded-For names the client (comma-separated addresses or CIDR blocks). Unset:
     * none, so the client address is the connection's and no header can choose it.
     */
    CTK_TRUSTED_PROXIES: z
      .string()
      .default('')
      .transform((text) =>
        text
          .split(',')
          .map((entry) => entry.trim())
          .filter(Boolean),
      )
      .refine(
        (entries) => entries.every(isAddressOrBlock),
        'use IP addresses or CIDR blocks, comma-separated (e.g. "10.0.0.1, 10.1.0.0/16")',
      ),
    /** Requests per minute per API key (or per client address without one). */
    CTK_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(1200),
    /** Requests per minute per client address on routes that create identities (onboard, sign-in). */
    CTK_SIGNUP_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(30),
    /** Requests per minute per client address to the chain passthrough (`/api/v1/bsv/*path`). */
    CTK_PASSTHROUGH_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(120),
    /** Requests per minute per client address to each paymail destination route (paymentDestination, P2P destination). */
    CTK_PAYMAIL_DESTINATION_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(120),
    /** Requests per minute per client address to item drafts (`POST /api/v1/items/analyze`): a photo costs pos seconds of a core. */
    CTK_ANALYZE_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(10),
    /**
     * Federation, per client address: peer exchanges (each makes federation ask the caller's URL back),
     * feed submissions (each verified, a peer's confirmed at its origin) and pins (anonymous ones are also
     * bounded per day by federation).
     */
    CTK_PEER_EXCHANGE_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(30),
    CTK_FEEDS_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(30),
    CTK_PINS_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(20),
    /**
     * Requests per minute per client address to each public pay-link route (the link, its QR, opening an
     * order: each opening takes a rate and holds a receiving output of the merchant's wallet).
     */
    CTK_PAY_LINK_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(30),
    /**
     * Requests per minute per client address to each public card route (a card by id or identifier, a
     * stamp verified from its txid: decision 0017), so that identifiers cannot be tried in bulk.
     */
    CTK_CARD_LOOKUP_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(60),
    /**
     * Requests per minute per commerce key (the whole shop's, decision 0018), besides each client address's
     * CTK_RATE_LIMIT_PER_MINUTE: a key copied into another page cannot cost the merchant without bound.
     */
    CTK_COMMERCE_KEY_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(30_000),
    /**
     * Requests per minute per payment-gate key, in place of CTK_RATE_LIMIT_PER_MINUTE: a merchant's resource
     * server asks `/api/v1/402/check` for each request it receives, so its key carries its customers' traffic.
     */
    CTK_PAYGATE_KEY_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(60_000),
    /** Checkouts per minute per client address: each takes a rate and holds a receiving output of the merchant's wallet. */
    CTK_CHECKOUT_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(60),
    /**
     * Stablecoin intents opened and settles sent, per minute per client address (decision 0036): an intent holds
     * an address of the merchant's wallet, and a settle reads the chain and may broadcast.
     */
    CTK_STABLECOIN_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(60),
    /**
     * Signatures handed in to jointly signed transactions, per minute per client address (decision 0037): anyone
     * with a transaction's id may, and each is checked against it and may complete and broadcast it.
     */
    CTK_CONTRACTS_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(60),
    /** Order event streams (SSE) one client address may hold open at once: each holds a call to pos. */
    CTK_ORDER_EVENT_STREAMS_PER_ADDRESS: z.coerce.number().int().min(1).default(20),
    CTK_SIGN_IN_CHALLENGE_TTL_SECONDS: z.coerce.number().int().min(10).max(3600).default(300),
    /** How long a resolved API key or membership may be served from memory. */
    /** How long the API key a key-based sign-in answers works (a browser's session): 12 hours by default. */
    CTK_SIGN_IN_KEY_HOURS: z.coerce
      .number()
      .int()
      .min(1)
      .max(24 * 90)
      .default(12),
    CTK_AUTH_CACHE_SECONDS: z.coerce.number().int().min(0).max(300).default(10),
  })
  .transform(({ CTK_PUBLIC_URL, ...config }) => ({ ...config, CTK_PUBLIC_URL: CTK_PUBLIC_URL ?? `http://localhost:${config.PORT}` }));

export type Config = z.infer<typeof configSchema>;

/** "10.0.0.1", "10.1.0.0/16", "fd00::/8". */
function isAddressOrBlock(entry: string): boolean {
  const [address = '', bits, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  return bits === undefined || (/^\d{1,3}$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128));
}
