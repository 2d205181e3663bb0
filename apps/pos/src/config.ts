import { configFields } from '@ctk/shared';
import { z } from 'zod';

export const configSchema = z.object({
  ...configFields.grpcListen(50062),
  LOG_LEVEL: configFields.logLevel,
  /** PostgreSQL URL; absent means the embedded PGlite database under CTK_DATA_DIR. */
  DATABASE_URL: configFields.databaseUrl,
  CTK_DATA_DIR: configFields.dataDir,
  /** How long a first page of items may be served from memory (0: never); writes here clear it at once. */
  POS_ITEMS_CACHE_MS: z.coerce.number().int().min(0).max(60_000).default(2_000),
});

export type Config = z.infer<typeof configSchema>;
