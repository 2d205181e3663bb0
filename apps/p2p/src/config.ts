import { chainConfigFields } from '@ctk/chain';
import { configFields } from '@ctk/shared';
import { z } from 'zod';

export const configSchema = z.object({
  ...configFields.grpcListen(50064),
  LOG_LEVEL: configFields.logLevel,
  /** PostgreSQL URL; absent means the embedded PGlite database under CTK_DATA_DIR. */
  DATABASE_URL: configFields.databaseUrl,
  CTK_DATA_DIR: configFields.dataDir,
  /** NATS with JetStream, where payment events are published; absent (or empty) without a transport given means none. */
  NATS_URL: configFields.natsUrl,
  ...chainConfigFields,
  /** How long a P2P payment destination (its reference and outputs) may be paid. */
  P2P_REFERENCE_TTL_SECONDS: z.coerce.number().int().min(60).max(86_400).default(900),
  /** How far a paymail sender's `dt` may be from now, either way. */
  P2P_DT_TOLERANCE_SECONDS: z.coerce.number().int().min(10).max(3_600).default(300),
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
