import { databaseConfigFields, eventConfigFields, flagField, serviceAddressFields, serviceConfigFields, unsetIfEmpty } from '@ctk/shared';
import { chainConfigFields } from '@ctk/chain';
import { z } from 'zod';

export const configSchema = z.object({
  ...serviceConfigFields('commerce'),
  ...databaseConfigFields,
  // Its outbox's events go to NATS (and commerce consumes them there) on the distributed path.
  ...eventConfigFields,
  // Commerce calls pos (the catalog is pos's items and menu, and a checkout is a pos order) and federation
  // (a published site shows the shop's hours, docs/decisions/0035-site-builder.md).
  ...serviceAddressFields(['pos', 'federation', 'p2p']),
  // The stablecoin's facts, token transfers and broadcast (docs/decisions/0036-stablecoin-and-tokens.md).
  ...chainConfigFields,
  /** How long an organisation's catalog, as read from pos, is served from memory (0: read it every time). */
  COMMERCE_CATALOG_CACHE_MS: z.coerce.number().int().min(0).max(60_000).default(2_000),
  /**
   * The AES-256 key organisations' provider webhook secrets are sealed with, hex (exactly 32 bytes). Unset:
   * made on first use and kept in commerce's database (set it in production, so the database alone cannot
   * open them). Changing it makes every secret set before unreadable: admins set them again.
   */
  COMMERCE_SECRETS_KEY: unsetIfEmpty(
    z
      .string()
      .regex(/^(?:[0-9a-fA-F]{2}){32}$/, 'COMMERCE_SECRETS_KEY must be hex of exactly 32 bytes')
      .optional(),
  ),
  /** A provider's signed event is accepted this many seconds either side of its timestamp (Stripe's default, 300). */
  COMMERCE_WEBHOOK_TOLERANCE_SECONDS: z.coerce.number().int().min(1).max(3600).default(300),
  /**
   * Anonymous seat holds (docs/decisions/0024-proof-holds-and-privacy.md): the seats one ticket checkout may
   * take, the seats one client address may hold unpaid at once at a shop, and how long a checkout's seats
   * are held (its order may be paid later: a late payment is sold when seats are still free).
   */
  COMMERCE_TICKET_SEATS_PER_CHECKOUT: z.coerce.number().int().min(1).max(100).default(6),
  COMMERCE_TICKET_SEATS_PER_CLIENT: z.coerce.number().int().min(1).max(1000).default(6),
  COMMERCE_TICKET_HOLD_SECONDS: z.coerce.number().int().min(60).max(3600).default(300),
  /**
   * Where sites published to a folder go: <dir>/<handle> is the site (a link switched atomically to its
   * version under <dir>/.versions/<handle>/). Unset: $CTK_DATA_DIR/sites. Nothing serves it; any static host can.
   */
  COMMERCE_SITES_DIR: unsetIfEmpty(z.string().min(1).optional()),
  /** The URL a static host serves COMMERCE_SITES_DIR at (a site is <url>/<handle>/): the site URL a publish answers. Unset: a file: URL. */
  COMMERCE_SITES_BASE_URL: unsetIfEmpty(z.url({ protocol: /^https?$/ }).optional()),
  /** Versions of a folder site kept besides the current one (to go back to by hand), the older removed after a publish. */
  COMMERCE_SITES_KEEP_VERSIONS: z.coerce.number().int().min(0).max(20).default(2),
  /**
   * Whether an S3 target may be on a private or loopback address (a store on this machine or network). Off:
   * only public addresses, checked when the connection is made; link-local and metadata addresses never.
   */
  COMMERCE_SITE_ALLOW_PRIVATE_STORES: flagField,
  /** How long a stablecoin intent's address stays held past its expiry: a late transfer is then refused, never taken for another payment. */
  COMMERCE_STABLECOIN_LATE_HOLD_SECONDS: z.coerce.number().int().min(0).max(86_400).default(3_600),
});

export type Config = z.infer<typeof configSchema>;
