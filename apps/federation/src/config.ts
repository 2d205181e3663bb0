import { databaseConfigFields, flagField, serviceAddressFields, serviceConfigFields, unsetIfEmpty } from '@ctk/shared';
import { z } from 'zod';

const count = (min: number, max: number, fallback: number) => z.coerce.number().int().min(min).max(max).default(fallback);
export const configSchema = z.object({
  ...serviceConfigFields('federation'),
  ...databaseConfigFields,
  // A feed lists pos's items at its rates and names the merchant's identity key, which p2p keeps.
  ...serviceAddressFields(['pos', 'p2p']),
  /** Where this instance's API answers for other instances (its gateway's public URL): a feed's origin. */
  FEDERATION_PUBLIC_URL: z.url({ protocol: /^https?$/ }).default('http://localhost:8080'),
  /**
   * The secp256k1 key this instance signs feeds, peer lists and Nostr events with, hex (32 bytes). Unset:
   * made on first use and kept in federation's database. Changing it makes peers see another instance.
   */
  FEDERATION_INSTANCE_KEY: unsetIfEmpty(
    z
      .string()
      .regex(/^[0-9a-fA-F]{64}$/, 'FEDERATION_INSTANCE_KEY must be 64 hex characters (a 32-byte secp256k1 key)')
      .optional(),
  ),
  /** Instances to exchange peers with from the start, comma-separated URLs. */
  FEDERATION_SEED_PEERS: z
    .string()
    .default('')
    .transform((text) =>
      text
        .split(',')
        .map((url) => url.trim())
        .filter(Boolean),
    )
    .pipe(z.array(z.url({ protocol: /^https?$/ }))),
  /**
   * Let peers on private, loopback and other non-public addresses be reached (several instances on one
   * machine or a private network). Off by default: a peer URL comes from strangers. Link-local addresses
   * (cloud metadata) stay refused even then.
   */
  FEDERATION_ALLOW_PRIVATE_PEERS: flagField,
  /** How often each peer is exchanged with and its feeds pulled (0: never, only on request). */
  FEDERATION_PULL_INTERVAL_MS: count(0, 86_400_000, 300_000),
  /** Per request to a peer: the whole exchange, and the largest answer read. */
  FEDERATION_FETCH_TIMEOUT_MS: count(100, 120_000, 15_000),
  FEDERATION_FEED_MAX_BYTES: count(1_024, 64 * 1024 * 1024, 16 * 1024 * 1024),
  /** The most items a feed may list (pos lists at most 10,000). */
  FEDERATION_FEED_MAX_ITEMS: count(1, 10_000, 10_000),
  /** The most feeds pulled from one peer per round, and the most peers this instance keeps. */
  FEDERATION_FEEDS_PER_PULL: count(1, 10_000, 200),
  FEDERATION_MAX_PEERS: count(1, 100_000, 1_000),
  /** The most feeds carried from one origin instance (its merchants): one peer cannot fill this instance's database. */
  FEDERATION_FEEDS_PER_PEER: count(1, 1_000_000, 1_000),
  /** The most peers read from one exchange (the rest of a list is ignored). */
  FEDERATION_PEERS_PER_EXCHANGE: count(1, 1_000, 100),
  /** Handles of this instance's merchants to feature first, comma-separated. */
  FEDERATION_FEATURED: z
    .string()
    .default('')
    .transform((text) =>
      text
        .split(',')
        .map((handle) => handle.trim())
        .filter(Boolean),
    ),
  /** Pins: how many one anonymous address may make per day, how long theirs last, and how many a user keeps. */
  FEDERATION_ANONYMOUS_PINS_PER_DAY: count(0, 1_000, 5),
  FEDERATION_ANONYMOUS_PIN_DAYS: count(1, 365, 30),
  FEDERATION_PINS_PER_USER: count(1, 100_000, 200),
});

export type Config = z.infer<typeof configSchema>;
