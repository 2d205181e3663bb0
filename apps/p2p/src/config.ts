import { chainConfigFields } from '@ctk/chain';
import { databaseConfigFields, eventConfigFields, serviceConfigFields } from '@ctk/shared';
import { z } from 'zod';

export const configSchema = z.object({
  ...serviceConfigFields('p2p'),
  ...databaseConfigFields,
  /** Where payment events are published. */
  ...eventConfigFields,
  ...chainConfigFields,
  /** How long a P2P payment destination (its reference and outputs) may be paid. */
  P2P_REFERENCE_TTL_SECONDS: z.coerce.number().int().min(60).max(86_400).default(900),
  /**
   * How many children of a merchant's xpub past the highest paid one destinations may use: a wallet
   * restored from its seed stops looking after this many unused addresses in a row (BIP44: 20).
   */
  P2P_GAP_LIMIT: z.coerce.number().int().min(1).max(1_000).default(20),
  /**
   * How many children of that window anonymous opens (paymail and P2P destinations, 402 payment requests,
   * pay-link orders, online checkouts) may never hold: kept for staff's counter orders (decision 0022).
   * At most P2P_GAP_LIMIT - 1 is kept, so that anonymous opens always have one child.
   */
  P2P_STAFF_RESERVED_ADDRESSES: z.coerce.number().int().min(0).max(1_000).default(5),
  /**
   * How many children of that window one anonymous client (by its network address) may hold at once, so
   * that one caller cannot take every address anonymous opens may use. Past it a paymail destination
   * shares a child the client already holds for paymail; anything else is 429 until its earliest hold ends.
   */
  P2P_ANONYMOUS_HOLDS_PER_CLIENT: z.coerce.number().int().min(1).max(1_000).default(5),
  /** How far a paymail sender's `dt` may be from now, either way. */
  P2P_DT_TOLERANCE_SECONDS: z.coerce.number().int().min(10).max(3_600).default(300),
  /** The payment gate: how long a 402's payment request may be paid. */
  P2P_GATE_REQUEST_TTL_SECONDS: z.coerce.number().int().min(30).max(3_600).default(300),
  /** BRC-121: how far a payment's x-bsv-time may be from now, either way. */
  P2P_GATE_FRESHNESS_SECONDS: z.coerce.number().int().min(5).max(600).default(30),
  /** How long a credential for a number of calls stays usable (a time window's lasts the window). */
  P2P_GATE_CALLS_CREDENTIAL_SECONDS: z.coerce.number().int().min(60).max(31_536_000).default(86_400),
  /** The Ed25519 seed credentials are signed with, 64 hex characters; unset, p2p makes one and keeps it in its database. */
  P2P_GATE_SIGNING_KEY: z
    .string()
    .regex(/^[0-9a-fA-F]{64}$/, 'P2P_GATE_SIGNING_KEY must be 64 hex characters (a 32-byte Ed25519 seed)')
    .optional(),
  /** The chain passthrough: per upstream request, and the largest upstream answer passed on. */
  P2P_PASSTHROUGH_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(10_000),
  P2P_PASSTHROUGH_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(1_024)
    .max(16 * 1024 * 1024)
    .default(1024 * 1024),
});

export type Config = z.infer<typeof configSchema>;
