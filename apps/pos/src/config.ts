import { chainConfigFields } from '@ctk/chain';
import { databaseConfigFields, eventConfigFields, serviceAddressFields, serviceConfigFields, unsetIfEmpty } from '@ctk/shared';
import { z } from 'zod';
import { fixedRates } from './rates/fixed-rates.js';

const seconds = (fallback: number, max: number) => z.coerce.number().int().min(1).max(max).default(fallback);

/** PEM text of one of `kinds` (e.g. CERTIFICATE), optional; `\n` written as two characters (one-line env files) reads as a line break. */
const pem = (name: string, kinds: string[]) =>
  unsetIfEmpty(
    z
      .string()
      .transform((text) => text.replaceAll('\\n', '\n').trim())
      .refine(
        (text) => kinds.some((kind) => text.startsWith(`-----BEGIN ${kind}-----`) && text.endsWith(`-----END ${kind}-----`)),
        `${name} must be PEM: -----BEGIN ${kinds[0]}----- ... -----END ${kinds[0]}-----`,
      )
      .optional(),
  );

export const configSchema = z.object({
  ...serviceConfigFields('pos'),
  ...databaseConfigFields,
  ...eventConfigFields,
  // pos calls books (the jurisdiction's tax rate) and p2p (payment outputs, settlement, chain reads).
  ...serviceAddressFields(['books', 'p2p']),
  /** The chain's network: customers' addresses on cards are in its form (pos reads the chain through p2p only). */
  CHAIN_NETWORK: chainConfigFields.CHAIN_NETWORK,
  /**
   * How long an organisation's tax settings, asked of books, are kept (0: never); forgotten at once when books
   * announces a change (decision 0053), and never kept while pos cannot hear it.
   */
  POS_TAX_KEEP_SECONDS: z.coerce.number().int().min(0).max(3600).default(60),
  /** How long a first page of items may be served from memory (0: never); writes here clear it at once. */
  POS_ITEMS_CACHE_MS: z.coerce.number().int().min(0).max(60_000).default(2_000),
  /** A menu photo's OCR taking longer is abandoned (504); the gateway waits for the queue and this. */
  POS_OCR_TIMEOUT_MS: z.coerce.number().int().min(1_000).max(120_000).default(15_000),
  /** Menu photos waiting behind the one being read; one more is refused 503 (OCR takes a core, one at a time). */
  POS_OCR_MAX_WAITING: z.coerce.number().int().min(0).max(100).default(3),
  /** Where the satoshi rate of an order comes from: `fixed` (POS_FIXED_RATES) or `http` (POS_PRICE_URL). */
  POS_PRICE_SOURCE: z.enum(['fixed', 'http']).default('fixed'),
  /**
   * Satoshis per minor unit for each currency, e.g. "USD=2000,EUR=1850" (exact decimals). The default is
   * a rough rate for a BSV price of 50 in each currency: right for tests and demos, not for real sales.
   */
  POS_FIXED_RATES: z
    .string()
    .default('USD=20000,EUR=20000,GBP=20000,AUD=20000,CAD=20000,JPY=2000000')
    .superRefine((spec, context) => {
      try {
        fixedRates(spec);
      } catch (error) {
        context.addIssue({ code: 'custom', message: error instanceof Error ? error.message : String(error) });
      }
    }),
  /**
   * A JSON price API answering the BSV price in a currency; `{currency}` is replaced by the lower-case code.
   * The answer is read as CoinGecko's simple price (`{"bitcoin-cash-sv":{"usd":51.2}}`) or WhatsOnChain's
   * exchange rate (`{"currency":"USD","rate":51.2}`).
   */
  POS_PRICE_URL: unsetIfEmpty(
    z.url({ protocol: /^https?$/ }).default('https://api.coingecko.com/api/v3/simple/price?ids=bitcoin-cash-sv&vs_currencies={currency}'),
  ),
  POS_PRICE_CACHE_SECONDS: seconds(60, 3600),
  /** A rate older than this is refused (503 unavailable) rather than used to price an order. */
  POS_PRICE_MAX_AGE_SECONDS: seconds(600, 86_400),
  /** How long an order stays open for payment (its output is held as long). */
  POS_ORDER_TTL_SECONDS: seconds(900, 86_400),
  /** How often the watcher asks p2p about open orders' addresses (0: no watcher). */
  POS_WATCH_INTERVAL_MS: z.coerce.number().int().min(0).max(600_000).default(5_000),
  /** How long past expiry a payment to the address still counts (paid late). */
  POS_LATE_PAYMENT_SECONDS: seconds(3600, 7 * 86_400),
  /**
   * How many unpaid orders (open, unexpired) of one limited pay link (max_uses) one client address may hold at
   * once (decision 0024); one more is 429 rate_limited until one is paid or expires.
   */
  POS_PAY_LINK_OPENS_PER_CLIENT: z.coerce.number().int().min(1).max(100).default(2),
  /**
   * The key pos signs pay links' terms with, hex (at least 32 bytes). Unset: pos makes one on first use and
   * keeps it in its database. Changing it invalidates every link signed before (they refuse new orders).
   */
  POS_PAY_LINK_KEY: unsetIfEmpty(
    z
      .string()
      .regex(/^(?:[0-9a-fA-F]{2}){32,256}$/, 'POS_PAY_LINK_KEY must be hex of 32 to 256 bytes')
      .optional(),
  ),
  /**
   * The AES-256 key card identifiers are sealed with, hex (exactly 32 bytes), so that a holder's wallet and
   * pass can show theirs. Unset: made on first use and kept in pos's database. Changing it makes every
   * identifier sealed before unreadable (they still work at the counter: lookups go by their hash).
   */
  POS_CARD_KEY: unsetIfEmpty(
    z
      .string()
      .regex(/^(?:[0-9a-fA-F]{2}){32}$/, 'POS_CARD_KEY must be hex of exactly 32 bytes')
      .optional(),
  ),
  /**
   * Apple Wallet passes (docs/decisions/0017-customer-cards.md, "Wallet passes"): the pass type's
   * certificate and its RSA key (PEM; the key may be encrypted with POS_APPLE_PASS_KEY_PASSPHRASE), Apple's
   * WWDR intermediate certificate, the pass type identifier and the team identifier. All five or none: none
   * makes development passes, signed by a certificate pos makes at start (Wallet refuses them).
   */
  POS_APPLE_PASS_CERT: pem('POS_APPLE_PASS_CERT', ['CERTIFICATE']),
  POS_APPLE_PASS_KEY: pem('POS_APPLE_PASS_KEY', ['RSA PRIVATE KEY', 'PRIVATE KEY', 'ENCRYPTED PRIVATE KEY']),
  POS_APPLE_PASS_KEY_PASSPHRASE: unsetIfEmpty(z.string().optional()),
  POS_APPLE_WWDR_CERT: pem('POS_APPLE_WWDR_CERT', ['CERTIFICATE']),
  POS_APPLE_PASS_TYPE_ID: unsetIfEmpty(
    z
      .string()
      .regex(
        /^pass\.[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+$/,
        'POS_APPLE_PASS_TYPE_ID must be a pass type identifier such as pass.com.example.loyalty',
      )
      .optional(),
  ),
  POS_APPLE_TEAM_ID: unsetIfEmpty(
    z
      .string()
      .regex(/^[A-Z0-9]{10}$/, 'POS_APPLE_TEAM_ID must be 10 upper-case letters and digits')
      .optional(),
  ),
  /**
   * Google Wallet save links: the service account's JSON key file (its `client_email` signs as `iss`, its
   * `private_key` signs the JWT) and the Wallet issuer id. Both or neither: neither signs with a development
   * key pos makes at start (Google refuses those links).
   */
  POS_GOOGLE_SERVICE_ACCOUNT: unsetIfEmpty(
    z
      .string()
      .refine(isServiceAccount, 'POS_GOOGLE_SERVICE_ACCOUNT must be a service account JSON key with client_email and private_key (PEM)')
      .optional(),
  ),
  POS_GOOGLE_ISSUER_ID: unsetIfEmpty(
    z
      .string()
      .regex(/^\d{1,25}$/, 'POS_GOOGLE_ISSUER_ID must be the Wallet issuer id (digits)')
      .optional(),
  ),
});

export type Config = z.infer<typeof configSchema>;

function isServiceAccount(text: string): boolean {
  try {
    const account = JSON.parse(text) as { client_email?: unknown; private_key?: unknown };
    return (
      typeof account.client_email === 'string' &&
      typeof account.private_key === 'string' &&
      account.private_key.includes('PRIVATE KEY-----')
    );
  } catch {
    return false;
  }
}
